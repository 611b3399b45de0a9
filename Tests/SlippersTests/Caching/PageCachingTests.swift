import Foundation
import Slippers
import Testing

@Suite struct PageCachingTests {
    @Test func maxAgeWinsOverExpires() {
        let caching = PageCaching(headers: [
            "Cache-Control": "max-age=60", "Expires": "Thu, 01 Jan 2026 00:10:00 GMT",
            "Date": "Thu, 01 Jan 2026 00:00:00 GMT",
        ])
        #expect(caching.lifetime() == 60)
    }

    @Test func expiresCountsFromTheResponsesDate() {
        let caching = PageCaching(headers: [
            "expires": "Thu, 01 Jan 2026 00:10:00 GMT", "date": "Thu, 01 Jan 2026 00:00:00 GMT",
        ])
        #expect(caching.lifetime() == 600)
        #expect(caching.date == Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test func anInvalidExpiresIsAlreadyExpired() {
        #expect(PageCaching(headers: ["Expires": "0"]).lifetime() == 0)
    }

    @Test func noCacheAndNoStoreHaveNoLifetimeAndNoHeadersHaveNone() {
        #expect(PageCaching(headers: ["Cache-Control": "no-cache, max-age=60"]).lifetime() == 0)
        #expect(PageCaching(headers: ["Cache-Control": "no-store"]).lifetime() == 0)
        #expect(PageCaching(headers: [:]).lifetime() == nil)
    }

    @Test func varyIsReadAsLowercasedNames() {
        let caching = PageCaching(headers: ["Vary": "Accept-Language, Authorization"])
        #expect(caching.vary == ["accept-language", "authorization"])
        #expect(!caching.variesOnEverything)
        #expect(PageCaching(headers: ["Vary": "*"]).variesOnEverything)
    }

    @Test func httpDatesOfEveryFormReadTheSameInstant() {
        let instant = Date(timeIntervalSince1970: 784_111_777)
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(PageCaching(headers: ["Date": text]).date == instant, "\(text)")
        }
        #expect(
            PageCaching(headers: ["Date": "Thu, 29 Feb 2024 23:59:59 GMT"]).date?.timeIntervalSince1970 == 1_709_251_199
        )
        #expect(PageCaching(headers: ["Date": "Sun, 06 Nov 1994 25:49:37 GMT"]).date == nil)
        #expect(PageCaching(headers: ["Date": "Sun, 06 Nov 99999999999999999 08:49:37 GMT"]).date == nil)
        #expect(PageCaching(headers: ["Expires": "Sun, 06 Nov -99999999999999999 08:49:37 GMT"]).lifetime() == 0)
    }
}
