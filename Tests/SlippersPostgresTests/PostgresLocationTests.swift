import Foundation
import SlippersPostgres
import Testing

/// Reading a PostgreSQL URL: the parts, the password from the URL or PGPASSWORD, never printed.
@Suite struct PostgresLocationTests {
    @Test func theURLGivesEveryPartAndItsDescriptionMasksThePassword() throws {
        let location = try PostgresLocation("postgres://sync:s3cr%40t@db.internal:6432/cache?schema=mirror")
        #expect(location.host == "db.internal")
        #expect(location.port == 6432)
        #expect(location.username == "sync")
        #expect(location.password == "s3cr@t")
        #expect(location.database == "cache")
        #expect(location.schema == "mirror")
        #expect(location.sslMode == "prefer")
        #expect(location.description == "postgres://sync:***@db.internal:6432/cache?schema=mirror")
        #expect(!"\(location)".contains("s3cr"))
    }

    @Test func thePasswordComesFromPGPASSWORDWhenTheURLHasNone() throws {
        let location = try PostgresLocation(
            "postgresql://sync@localhost/cache", environment: ["PGPASSWORD": "from-env"])
        #expect(location.password == "from-env")
        #expect(location.port == 5432)
        #expect(location.schema == "slippers")
        #expect(location.description == "postgres://sync:***@localhost:5432/cache?schema=slippers")
    }

    @Test(arguments: [
        ("https://db/cache", "a PostgreSQL URL reads"),
        ("postgres://db/cache", "no user"),
        ("postgres://sync@db/", "no database"),
        ("postgres://sync:pw@db/cache?schema=Bad-Name", "the schema must be"),
        ("postgres://sync:pw@db/cache?sslmode=maybe", "sslmode must be"),
    ])
    func badURLsAreOneLineWithoutThePassword(url: String, message: String) {
        #expect(PostgresLocation.isPostgresURL(url) == url.hasPrefix("postgres"))
        do {
            _ = try PostgresLocation(url, environment: [:])
            Issue.record("\(url) was accepted")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
            #expect(!"\(error)".contains("pw"))
        }
    }
}
