import Foundation
import Slippers
import SlippersPostgres
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// The cache's schema in a real PostgreSQL server the test starts: made and migrated once,
/// ours only, refused untouched when it is foreign or newer, other programs' tables left alone.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct PostgresCacheSchemaTests {
    @Test func workersOpeningANewDatabaseTogetherMigrateItOnce() async throws {
        try await PostgresServer.with { server in
            let database = try await server.makeDatabase()
            let location = try PostgresLocation(server.url(database: database))
            let caches = try await withThrowingTaskGroup(of: PostgresCache.self) { group in
                for _ in 0..<3 { group.addTask { try await PostgresCache.open(location) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for cache in caches {
                #expect(try await cache.appliedMigrations() == PostgresCache.knownMigrations)
                try await cache.close()
            }
            let tables = try await server.psql(
                "SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables "
                    + "WHERE table_schema = 'slippers'", database: database)
            #expect(
                tables
                    == "collections,items,page_items,pages,queue,rate_budgets,schema_migrations,settings,shared_pages,"
                    + "watermarks")
            let applied = try await server.psql("SELECT count(*) FROM slippers.schema_migrations", database: database)
            #expect(applied == String(PostgresCache.knownMigrations.count))
            // Opened again, nothing is applied twice.
            let again = try await PostgresCache.open(location)
            #expect(try await again.appliedMigrations() == PostgresCache.knownMigrations)
            try await again.close()
        }
    }

    @Test func aSchemaOfOurNameNotMadeByUsIsRefusedUntouched() async throws {
        try await PostgresServer.with { server in
            let database = try await server.makeDatabase()
            try await server.psql(
                "CREATE SCHEMA slippers; CREATE TABLE slippers.accounts (id int); "
                    + "INSERT INTO slippers.accounts VALUES (7)", database: database)
            let location = try PostgresLocation(server.url(database: database))
            await #expect(throws: PostgresCacheError.foreignSchema(location: location.description)) {
                try await PostgresCache.open(location)
            }
            let tables = try await server.psql(
                "SELECT string_agg(table_name, ',') FROM information_schema.tables WHERE table_schema = 'slippers'",
                database: database)
            #expect(tables == "accounts")
            #expect(try await server.psql("SELECT id FROM slippers.accounts", database: database) == "7")
        }
    }

    @Test func aSchemaMigratedByANewerReleaseIsRefusedUntouched() async throws {
        try await PostgresServer.with { server in
            let database = try await server.makeDatabase()
            let location = try PostgresLocation(server.url(database: database))
            try await PostgresCache.open(location).close()
            try await server.psql(
                "INSERT INTO slippers.schema_migrations (identifier) VALUES ('9999_future')", database: database)
            let list = "SELECT string_agg(identifier, ',' ORDER BY identifier) FROM slippers.schema_migrations"
            let before = try await server.psql(list, database: database)
            await #expect(
                throws: PostgresCacheError.newerSchema(
                    location: location.description, unknownMigrations: ["9999_future"])
            ) {
                try await PostgresCache.open(location)
            }
            #expect(try await server.psql(list, database: database) == before)
        }
    }

    @Test func otherProgramsTablesAreLeftAloneAndASchemaOfOurChoiceWorks() async throws {
        try await PostgresServer.with { server in
            let database = try await server.makeDatabase()
            try await server.psql(
                "CREATE TABLE public.collections (name text); INSERT INTO public.collections VALUES ('theirs')",
                database: database)
            let location = try PostgresLocation(server.url(database: database, query: "schema=mirror"))
            let cache = try await PostgresCache.open(location)
            #expect(try await cache.appliedMigrations() == PostgresCache.knownMigrations)
            try await cache.close()
            #expect(try await server.psql("SELECT name FROM public.collections", database: database) == "theirs")
            #expect(try await server.psql("SELECT count(*) FROM mirror.collections", database: database) == "0")
            let schemas = try await server.psql(
                "SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace "
                    + "WHERE nspname IN ('slippers', 'mirror')", database: database)
            #expect(schemas == "mirror")
        }
    }

    @Test func aCacheOfTheReleaseBeforeIsMigratedWithItsPages() async throws {
        try await PostgresServer.with { server in
            let database = try await server.makeDatabase()
            // The schema as the release before made it (migrations 0001 to 0003), with a list of two pages.
            let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Migrations/postgres").standardized
            let earlier = ["0001_create_cache", "0002_queue", "0003_shared_pages"]
            var sql =
                "CREATE SCHEMA slippers; COMMENT ON SCHEMA slippers IS 'Slippers cache'; "
                + "CREATE TABLE slippers.schema_migrations "
                + "(identifier TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now()); "
                + "SET search_path TO slippers;\n"
            for name in earlier {
                sql += try String(contentsOf: folder.appendingPathComponent(name + ".sql"), encoding: .utf8) + "\n"
                sql += "INSERT INTO schema_migrations (identifier) VALUES ('\(name)');\n"
            }
            sql += """
                INSERT INTO collections (key, item_type, created_at, generation, resume_token)
                    VALUES ('GET /posts', 'Post', 0, 1, '3');
                INSERT INTO items (type, key, json, updated_at)
                    SELECT 'Post', n::text, convert_to('{"id":' || n || '}', 'UTF8'), 0 FROM generate_series(1, 4) n;
                INSERT INTO pages (collection_id, idx, generation, token, next_token, fetched_at, item_count)
                    VALUES (1, 0, 1, NULL, '2', 0, 2), (1, 1, 1, '2', '3', 0, 2);
                INSERT INTO page_items (page_id, position, item_id)
                    SELECT p.id, i.id - 1 - 2 * p.idx, i.id FROM pages p JOIN items i ON i.id IN (2 * p.idx + 1, 2 * p.idx + 2);
                """
            try await server.psql(sql, database: database)

            let cache = try await PostgresCache.open(try PostgresLocation(server.url(database: database)))
            #expect(try await cache.appliedMigrations() == PostgresCache.knownMigrations)
            let unfilled = try await server.psql(
                "SELECT count(*) FROM slippers.page_items WHERE collection_id IS DISTINCT FROM 1", database: database)
            #expect(unfilled == "0")
            #expect(try await cache.list("GET /posts")?.itemCount == 4)
            #expect(try await cache.unlistedCount(of: [.integer(3), .integer(5)], before: 2, in: "GET /posts") == 1)
            // The next page repeats an id of the first: the migrated memberships count it as listed.
            let item = RawItem(key: .integer(1), json: Data(#"{"id":1}"#.utf8))
            let head = try await cache.savePage(
                Page(items: [item], token: "3", nextToken: nil), at: 2,
                in: ListDescriptor(key: "GET /posts", itemType: "Post"))
            #expect(head.repeatedItemCount == 1)
            #expect(head.endReached)
            #expect(try await cache.diagnose().inconsistentPages.isEmpty)
            try await cache.close()
        }
    }

    @Test func aWrongPasswordOrAServerThatIsDownIsOneLineWithoutThePassword() async throws {
        try await PostgresServer.with { server in
            let database = try await server.makeDatabase()
            let wrong = try PostgresLocation(
                "postgres://\(PostgresServer.user):not-the-pw-123@127.0.0.1:\(server.port)/\(database)")
            do {
                _ = try await PostgresCache.open(wrong)
                Issue.record("a wrong password was accepted")
            } catch {
                let line = "\(error)"
                #expect(line.contains("password authentication failed"), "\(line)")
                #expect(!line.contains("not-the-pw-123"))
                #expect(!line.contains("\n"))
            }
            await server.stop()
            do {
                _ = try await PostgresCache.open(try PostgresLocation(server.url(database: database)))
                Issue.record("a stopped server was reached")
            } catch {
                let line = "\(error)"
                #expect(
                    line.hasPrefix("Cannot connect to postgres://slippers:***@127.0.0.1:\(server.port)/"), "\(line)")
                #expect(!line.contains(PostgresServer.password))
            }
        }
    }
}
