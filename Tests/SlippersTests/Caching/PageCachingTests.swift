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

    @Test func theVaryKeyTellsValuesApartWithoutHoldingThem() throws {
        let names = ["Authorization"]
        let alice = try #require(PageCaching.varyKey(for: names) { _ in "Bearer alice-secret" })
        let bob = PageCaching.varyKey(for: names) { _ in "Bearer bob-secret" }
        #expect(alice != bob)
        #expect(PageCaching.varyKey(for: names) { _ in "Bearer alice-secret" } == alice)
        #expect(!alice.contains("alice"))
        #expect(PageCaching.varyKey(for: []) { _ in "x" } == nil)
    }
}
