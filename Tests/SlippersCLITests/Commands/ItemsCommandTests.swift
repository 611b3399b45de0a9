import Foundation
import SlippersTestSupport
import Testing

@Suite struct ItemsCommandTests {
    @Test func listsTheWholeListInOrder() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["items", "GET /posts", "--db", directory.path()])
        #expect(outcome.status == 0)
        let lines = outcome.stdoutLines
        #expect(lines.count == 152)
        #expect(lines[0] == "  #   id  bytes  json")
        #expect(lines[2] == #"  0    1     25  {"id":1,"title":"Post 1"}"#)
        #expect(lines[151].hasPrefix("149  150"))
    }

    @Test func listsOnePage() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run([
            "items", "GET /posts", "--page", "1", "--db", directory.path(),
        ])
        #expect(outcome.status == 0)
        let ids = outcome.stdoutLines.dropFirst(2).map { $0.split(separator: " ")[1] }
        #expect(ids == (51...100).map { Substring(String($0)) })
    }

    @Test func jsonWrapsTheStoredBytesWithTheirIds() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["items", "GET /users", "--json", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                [
                  {"id":"u1","item":{"id":"u1","name":"User u1"}},
                  {"id":"u2","item":{"id":"u2","name":"User u2"}},
                  {"id":"u3","item":{"id":"u3","name":"User u3"}}
                ]

                """)
        let page = try await BuiltBinary.slippers.run([
            "items", "GET /posts", "--page", "2", "--json", "--db", directory.path(),
        ])
        let items = try #require(try parsedJSON(page.stdout) as? [[String: Any]])
        #expect(items.compactMap { $0["id"] as? Int } == Array(101...150))
    }

    @Test func aPageThatIsNotCachedIsReported() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run([
            "items", "GET /posts", "--page", "9", "--db", directory.path(),
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == [#"slippers: Page 9 of "GET /posts" is not cached (it has 3 pages)"#])
    }

    @Test func anUnknownListIsReportedWithOrWithoutAPage() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        for arguments in [["items", "nope"], ["items", "nope", "--page", "0"], ["items", "nope", "--json"]] {
            let outcome = try await BuiltBinary.slippers.run(arguments + ["--db", directory.path()])
            #expect(outcome.status == 1)
            #expect(outcome.stderrLines == [#"slippers: No list "nope" in the cache"#])
        }
    }

    @Test func aNegativePageIsAUsageError() async throws {
        let outcome = try await BuiltBinary.slippers.run(["items", "GET /posts", "--page=-1"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--page must be 0 or more"))
    }
}
