import Crypto
import Foundation
import Slippers
import SlippersNetworking
import Testing

@Suite struct PageCachingVaryKeyTests {
    @Test func theVaryKeyTellsValuesApartWithoutHoldingThem() throws {
        let names = ["Authorization"]
        let alice = try #require(PageCaching.varyKey(for: names) { _ in "Bearer alice-secret" })
        let bob = PageCaching.varyKey(for: names) { _ in "Bearer bob-secret" }
        #expect(alice != bob)
        #expect(PageCaching.varyKey(for: names) { _ in "Bearer alice-secret" } == alice)
        #expect(!alice.contains("alice"))
        #expect(PageCaching.varyKey(for: []) { _ in "x" } == nil)
    }

    @Test func theVaryKeyIsTheSHA256OfTheSortedNamesAndValues() throws {
        let key = PageCaching.varyKey(for: ["X-B", "Authorization"]) { $0 == "authorization" ? "Bearer t" : nil }
        var hash = SHA256()
        hash.update(data: Data("authorization\u{0}Bearer t\u{1}x-b\u{0}\u{1}".utf8))
        #expect(key == hash.finalize().map { String(format: "%02x", $0) }.joined())
    }
}
