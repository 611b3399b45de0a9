import Foundation
import Slippers
import Testing

@Suite struct CacheControlTests {
    @Test func readsTheDirectivesAPrivateCacheActsOn() {
        let directives = CacheControl(
            parsing: "private, Max-Age=60, no-cache, must-revalidate, stale-while-revalidate=30, stale-if-error=\"600\""
        )
        #expect(directives.maxAge == 60)
        #expect(directives.noCache)
        #expect(!directives.noStore)
        #expect(directives.mustRevalidate)
        #expect(directives.staleWhileRevalidate == 30)
        #expect(directives.staleIfError == 600)
    }

    @Test func noStoreAndAnAbsentHeader() {
        #expect(CacheControl(parsing: "no-store").noStore)
        #expect(CacheControl(parsing: nil) == CacheControl())
        #expect(CacheControl(parsing: "") == CacheControl())
    }

    @Test func malformedValuesAreIgnoredAndTheFirstOccurrenceCounts() {
        #expect(CacheControl(parsing: "max-age=abc").maxAge == nil)
        #expect(CacheControl(parsing: "max-age=-5").maxAge == nil)
        #expect(CacheControl(parsing: "max-age=10, max-age=99").maxAge == 10)
        #expect(CacheControl(parsing: ",,max-age=5,,").maxAge == 5)
        #expect(CacheControl(parsing: "max-age=99999999999999999999999").maxAge == TimeInterval(Int32.max))
    }
}
