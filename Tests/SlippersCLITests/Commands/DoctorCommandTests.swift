import Foundation
import SlippersTestSupport
import Testing

@Suite struct DoctorCommandTests {
    @Test func aSoundCacheIsHealthyAndExitsZero() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["doctor", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout == """
                file       \(directory.path())
                integrity  ok
                schema     0013_reading_positions (13 of 13 migrations applied)
                orphans    none
                pages      consistent
                lists      complete as announced
                search     the index agrees with the items
                accounts   no write waits for a derived account
                verdict    healthy

                """)
        let json = try await BuiltBinary.slippers.run(["doctor", "--json", "--db", directory.path()])
        #expect(json.status == 0)
        #expect(
            writtenKeys(ofFirstObjectIn: json.stdout) == [
                "applied_migrations", "healthy", "incomplete_lists", "inconsistent_pages", "integrity",
                "known_migrations", "orphans", "schema_version", "search_index", "writes_of_derived_accounts",
            ])
        let diagnosis = try #require(try parsedJSON(json.stdout) as? [String: Any])
        #expect(diagnosis["healthy"] as? Bool == true)
        #expect(diagnosis["schema_version"] as? String == "0013_reading_positions")
    }

    @Test func inconsistentAndOrphanRowsAreNamedAndExitOne() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        try SeededCache.execute(
            """
            UPDATE pages SET item_count = 7 WHERE idx = 1 AND collection_id = (SELECT id FROM collections WHERE key = 'GET /posts');
            INSERT INTO page_items (page_id, position, item_id) VALUES ((SELECT min(id) FROM pages), 999, 424242);
            """, at: directory.path())
        let before = try contents(of: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["doctor", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains(#"page 1 of "GET /posts" lists 50 items but records 7"#))
        #expect(outcome.stdout.contains("page_items row"))
        #expect(outcome.stdout.contains("verdict    NOT healthy"))
        let json = try await BuiltBinary.slippers.run(["doctor", "--json", "--db", directory.path()])
        #expect(json.status == 1)
        let diagnosis = try #require(try parsedJSON(json.stdout) as? [String: Any])
        #expect(diagnosis["healthy"] as? Bool == false)
        #expect((diagnosis["orphans"] as? [String])?.count == 1)
        #expect(try contents(of: directory.path()) == before)
    }
}
