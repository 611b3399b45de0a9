import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
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

    @Test func theFirstSearchIndexesTheTypeOnceAndMembersNarrowIt() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let first = try await BuiltBinary.slippers.run(["search", "GET /posts", "post 7", "--db", directory.path()])
        #expect(first.status == 0)
        #expect(first.stderr.contains("indexing the cached items"))
        let second = try await BuiltBinary.slippers.run(["search", "GET /posts", "post 7", "--db", directory.path()])
        #expect(second.stderr.isEmpty)
        let narrowed = try await BuiltBinary.slippers.run([
            "search", "GET /posts", "post", "--members", "body", "--db", directory.path(),
        ])
        #expect(narrowed.status == 0)
        #expect(narrowed.stderr.contains("indexed the cached items of this list's type for search in body"))
        #expect(narrowed.stdout.contains("no item matches"))
        let widened = try await BuiltBinary.slippers.run([
            "search", "GET /posts", "post", "--members", "", "--db", directory.path(),
        ])
        #expect(widened.stdout.contains("Post"))
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
            INSERT INTO search_types (item_type) VALUES ('Post');
            DROP TRIGGER item_search_insert;
            INSERT INTO items (type, key, json, updated_at) VALUES ('Post', 999, '{"title":"stray"}', 0);
            """, at: directory.path())
        let sick = try await BuiltBinary.slippers.run(["doctor", "--db", directory.path()])
        #expect(sick.status == 1)
        #expect(sick.stdout.contains("doctor --repair"))
        let repaired = try await BuiltBinary.slippers.run(["doctor", "--repair", "--db", directory.path()])
        #expect(repaired.status == 0, "\(repaired.stdout)")
    }

    @Test func aSearchKeepsToTheSelectedAccountAndNeverMixesTwo() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        for name in ["alice", "bob"] {
            let account = Account(name)
            try store.savePage(
                Page(
                    items: [RawItem(key: .integer(1), json: Data(#"{"id":1,"title":"secret of \#(name)"}"#.utf8))],
                    nextToken: nil),
                at: 0,
                in: ListDescriptor(
                    key: ListKey("GET /notes", account: account).description,
                    itemType: ListKey.itemType("Note", account: account)))
        }
        try store.close()
        let db = ["--db", directory.path()]
        let alice = try await BuiltBinary.slippers.run(["search", "GET /notes", "secret", "--account", "alice"] + db)
        #expect(alice.status == 0)
        #expect(alice.stdout.contains("secret of alice") && !alice.stdout.contains("secret of bob"))
        let bob = try await BuiltBinary.slippers.run(["search", "GET /notes", "alice", "--account", "bob"] + db)
        #expect(bob.status == 0)
        #expect(bob.stdout.contains("no item matches"))
        // Without an account, a list two accounts hold is refused, never searched as one.
        let either = try await BuiltBinary.slippers.run(["search", "GET /notes", "secret"] + db)
        #expect(either.status == 1)
        #expect(!either.stdout.contains("secret of"))
    }
}
