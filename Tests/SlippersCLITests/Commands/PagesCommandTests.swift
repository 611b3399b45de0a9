import Foundation
import SlippersTestSupport
import Testing

@Suite struct PagesCommandTests {
    static let keys = [
        "digest", "etag", "fetched_at", "gaps", "generation", "index", "item_count", "last_modified", "lifetime",
        "next_token", "no_cache", "superseded", "token", "unverified", "validator", "verified_at",
    ]

    @Test func listsTheCachedPagesInOrder() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["pages", "GET /posts", "--db", directory.path()])
        #expect(outcome.status == 0)
        let lines = outcome.stdoutLines
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("page  gen  items"))
        #expect(lines[2].hasPrefix("   0    1     50"))
        #expect(lines[2].hasSuffix("-      2     \"posts-0\"  no             -"), "\(lines[2])")
        #expect(lines[4].hasPrefix("   2    1     50"))
        #expect(lines[4].hasSuffix("3      -     \"posts-2\"  no             -"))
    }

    @Test func jsonHasEveryKeyOfEveryPage() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["pages", "GET /posts", "--json", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(writtenKeys(ofFirstObjectIn: outcome.stdout) == Self.keys)
        let pages = try #require(try parsedJSON(outcome.stdout) as? [[String: Any]])
        #expect(pages.map { $0["index"] as? Int } == [0, 1, 2])
        #expect(pages.map { $0["token"] as? String } == [nil, "2", "3"])
        #expect(pages[0]["token"] is NSNull)
        #expect(pages[2]["next_token"] is NSNull)
        #expect(pages[1]["etag"] as? String == "\"posts-1\"")
        #expect(pages.allSatisfy { $0["item_count"] as? Int == 50 && $0["superseded"] as? Bool == false })
    }

    @Test func anUnknownListIsOneLineOnStderr() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["pages", "nope", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderrLines == [#"slippers: No list "nope" in the cache"#])
    }

    @Test func aMissingListArgumentIsAUsageError() async throws {
        let outcome = try await BuiltBinary.slippers.run(["pages"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("Usage"))
    }
}
