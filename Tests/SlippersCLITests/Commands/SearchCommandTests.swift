import Foundation
import SlippersTestSupport
import Testing

@Suite struct SearchCommandTests {
    @Test func aSearchPrintsTheMatchesOfOneListRankedAsTableJSONOrNDJSON() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let table = try await BuiltBinary.slippers.run(["search", "GET /posts", "post 42", "--db", directory.path()])
        #expect(table.status == 0)
        #expect(table.stdout.contains(#"{"id":42,"title":"Post 42"}"#))
        #expect(!table.stdout.contains("Post 41"))
        let json = try await BuiltBinary.slippers.run([
            "search", "GET /posts", "42", "--json", "--db", directory.path(),
        ])
        #expect(json.status == 0)
        let matches = try #require(try parsedJSON(json.stdout) as? [[String: Any]])
        #expect(matches.map { $0["id"] as? Int } == [42])
        let ndjson = try await BuiltBinary.slippers.run([
            "search", "GET /posts", "pos", "--format", "ndjson", "--limit", "3", "--db", directory.path(),
        ])
        #expect(ndjson.stdout.split(separator: "\n").count == 3)
    }

    @Test func noMatchAndHostileTextExitZero() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        for text in ["nothing here", "\"", "AND OR (", "*"] {
            let outcome = try await BuiltBinary.slippers.run(["search", "GET /posts", text, "--db", directory.path()])
            #expect(outcome.status == 0, "\(text): \(outcome.stderr)")
        }
    }

    @Test func anUnknownListIsOneLineAndExitsOne() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["search", "GET /nope", "x", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    @Test func viewsListTheViewOfEachItemTypeAndSQLiteReadsThem() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["views", "--json", "--db", directory.path()])
        #expect(outcome.status == 0)
        let views = try #require(try parsedJSON(outcome.stdout) as? [[String: Any]])
        #expect(views.map { $0["name"] as? String } == ["Post", "User"])
        let columns = (views.first?["columns"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(columns == ["id", "title"])
        let table = try await BuiltBinary.slippers.run(["views", "--db", directory.path()])
        #expect(table.stdout.contains("cache_account, cache_key, id, title"))
    }

    @Test func doctorRepairRebuildsAnIndexThatDisagrees() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        try SeededCache.execute(
            """
            DROP TRIGGER item_search_insert;
            INSERT INTO items (type, key, json, updated_at) VALUES ('Post', 999, '{"title":"stray"}', 0);
            """, at: directory.path())
        let sick = try await BuiltBinary.slippers.run(["doctor", "--db", directory.path()])
        #expect(sick.status == 1)
        #expect(sick.stdout.contains("doctor --repair"))
        let repaired = try await BuiltBinary.slippers.run(["doctor", "--repair", "--db", directory.path()])
        #expect(repaired.status == 0, "\(repaired.stdout)")
    }
}
