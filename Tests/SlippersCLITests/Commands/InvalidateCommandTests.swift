import Foundation
import SlippersTestSupport
import Testing

@Suite struct InvalidateCommandTests {
    @Test func marksOneListStale() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["invalidate", "GET /posts", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "invalidated \"GET /posts\"\n")
        #expect(try await staleness(at: directory.path()) == ["GET /posts": true, "GET /users": false])
    }

    @Test func marksEveryListStale() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["invalidate", "--all", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "invalidated 2 lists\n")
        #expect(try await staleness(at: directory.path()) == ["GET /posts": true, "GET /users": true])
    }

    @Test(arguments: [["invalidate"], ["invalidate", "GET /posts", "--all"]])
    func takesAListOrAllButNotBoth(arguments: [String]) async throws {
        let outcome = try await BuiltBinary.slippers.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--all"))
    }

    @Test func anUnknownListChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let before = try contents(of: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["invalidate", "nope", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == [#"slippers: No list "nope" in the cache"#])
        #expect(try contents(of: directory.path()) == before)
    }

    @Test func aMissingFileIsNotCreated() async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run(["invalidate", "--all", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == ["slippers: No cache file at \(directory.path())"])
        #expect(!fileExists(directory.path()))
    }

    private func staleness(at path: String) async throws -> [String: Bool] {
        let outcome = try await BuiltBinary.slippers.run(["lists", "--json", "--db", path])
        let lists = try #require(try parsedJSON(outcome.stdout) as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: lists.map { ($0["key"] as? String ?? "", $0["unverified"] as? Bool ?? false) })
    }
}
