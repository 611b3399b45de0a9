import Foundation
import SlippersPostgres
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
            #expect(tables == "collections,items,page_items,pages,queue,schema_migrations,shared_pages")
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
