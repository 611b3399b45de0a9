import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Slippers
import SlippersStorage
import Synchronization

/// A cache in a PostgreSQL database: one schema of ours (``PostgresLocation/schema``), made and
/// migrated when it is opened.
///
/// Opening checks the schema before it changes anything, in one transaction under an advisory
/// lock, so that workers starting together migrate once:
/// - a schema that does not exist is created, marked as ours (its comment) and migrated;
/// - a schema of that name not made by Slippers is refused untouched
///   (``PostgresCacheError/foreignSchema(location:)``);
/// - a schema that holds migrations this binary does not know is refused untouched
///   (``PostgresCacheError/newerSchema(location:unknownMigrations:)``).
///
/// Tables of other programs, in other schemas of the same database, are never read or written.
/// The migrations are `Migrations/postgres/*.sql`, embedded in the binary at build time.
///
/// A cache is a `CacheStorage`, as an SQLite file is: `ListSync` saves pages into it and
/// the inspection commands read it. Its operations take turns on one connection, made again
/// when it is lost (a server restart); each is bounded, so that a server that stops answering
/// fails it instead of holding it. It also holds the fleet's queue (``enqueue(_:now:)``,
/// ``claim(worker:lease:now:)``) and the lists' leases (``withListLease(_:onWait:whileWaiting:_:)``).
///
/// ```swift
/// let cache = try await PostgresCache.open(try PostgresLocation("postgres://sync@db.internal/cache"))
/// defer { Task { try await cache.close() } }
/// print(try await cache.appliedMigrations())
/// ```
public final class PostgresCache: Sendable {
    /// Where the cache is.
    let location: PostgresLocation
    /// The connection every operation takes its turn on; made again after it was lost.
    let client: PostgresConnections
    let logger: Logger
    /// The connections holding this process's list leases, by list key, while they are held.
    let leaseConnections = Mutex<[String: PostgresConnection]>([:])
    /// The key of the cache's fingerprints of header values (migration 0008), read once at opening.
    let headerFingerprintKey: HeaderFingerprintKey?

    /// The comment that marks a schema as made by Slippers.
    static let marker = "Slippers cache"

    /// The migrations this binary applies, in order.
    package static var knownMigrations: [String] { EmbeddedMigrations.all.map(\.identifier) }

    private init(
        location: PostgresLocation, client: PostgresConnections, headerFingerprintKey: HeaderFingerprintKey?,
        logger: Logger
    ) {
        self.location = location
        self.client = client
        self.headerFingerprintKey = headerFingerprintKey
        self.logger = logger
    }

    /// Connects to the location's database and makes or migrates its schema.
    ///
    /// TLS follows the URL's `sslmode`, as libpq's does: `prefer` (the default: TLS when the
    /// server offers it, its certificate not checked), `require` (the same, but never without
    /// TLS), `verify-full` (TLS with the certificate checked against the system's trust roots and
    /// the host name), or `disable`.
    ///
    /// - throws: A ``PostgresCacheError`` whose line names the location without its password.
    public static func open(_ location: PostgresLocation, logger: Logger = Logger(label: "slippers.postgres"))
        async throws -> PostgresCache
    {
        let connection: PostgresConnection
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username,
            password: location.password, database: location.database, tls: try location.tls())
        configuration.options.connectTimeout = .seconds(10)
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch let error as PostgresCacheError {
            throw error
        } catch {
            throw PostgresCacheError.cannotConnect(location: location.description, reason: Self.reason(error))
        }
        let headerFingerprintKey: HeaderFingerprintKey?
        do {
            try await migrate(connection, location: location, logger: logger)
            headerFingerprintKey = try await Self.headerFingerprintKey(connection, location: location, logger: logger)
        } catch {
            try? await connection.close()
            throw Self.mapped(error, location: location)
        }
        try? await connection.close()
        return PostgresCache(
            location: location,
            client: PostgresConnections(
                configuration: configuration, quotedSchema: location.quotedSchema, logger: logger),
            headerFingerprintKey: headerFingerprintKey, logger: logger)
    }

    /// The migrations applied to the schema, in order.
    ///
    /// - throws: ``PostgresCacheError/failed(location:detail:)``.
    public func appliedMigrations() async throws -> [String] {
        try await mappingErrors {
            try await client.withConnection { [self] connection in
                try await Self.appliedMigrations(connection, location: self.location, logger: self.logger)
            }
        }
    }

    /// Closes the connections.
    public func close() async throws {
        await client.close()
    }

    /// Runs `body`, its errors made ours: one line naming the location without its password.
    @discardableResult
    func mappingErrors<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as CacheError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Self.mapped(error, location: location)
        }
    }

    // MARK: The schema

    private static func migrate(_ connection: PostgresConnection, location: PostgresLocation, logger: Logger)
        async throws
    {
        let schema = location.quotedSchema
        try await PostgresConnections.transaction(on: connection, logger: logger) {
            // One migrator at a time, whichever process: workers opening together wait here.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtext(\("slippers:" + location.schema)))", logger: logger)
            var exists = false
            var comment: String?
            let rows = try await connection.query(
                "SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = \(location.schema)",
                logger: logger)
            for try await value in rows.decode(String?.self) {
                exists = true
                comment = value
            }
            if !exists {
                for statement in [
                    "CREATE SCHEMA \(schema)",
                    "COMMENT ON SCHEMA \(schema) IS '\(marker)'",
                    "CREATE TABLE \(schema).schema_migrations "
                        + "(identifier TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                ] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            } else if comment != marker {
                throw PostgresCacheError.foreignSchema(location: location.description)
            }
            let applied = try await appliedMigrations(connection, location: location, logger: logger)
            let known = Set(knownMigrations)
            let unknown = applied.filter { !known.contains($0) }
            guard unknown.isEmpty else {
                throw PostgresCacheError.newerSchema(location: location.description, unknownMigrations: unknown)
            }
            try await connection.query(PostgresQuery(unsafeSQL: "SET LOCAL search_path TO \(schema)"), logger: logger)
            for migration in EmbeddedMigrations.all where !applied.contains(migration.identifier) {
                for statement in statements(of: migration.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                if convertsQueuedArguments(migration.identifier) {
                    try await convertQueuedArguments(connection, logger: logger)
                }
                try await connection.query(
                    "INSERT INTO \(unescaped: schema).schema_migrations (identifier) VALUES (\(migration.identifier))",
                    logger: logger)
                logger.info("migrated", metadata: ["migration": "\(migration.identifier)", "schema": "\(schema)"])
            }
        }
    }

    private static func headerFingerprintKey(
        _ connection: PostgresConnection, location: PostgresLocation, logger: Logger
    ) async throws -> HeaderFingerprintKey? {
        let rows = try await connection.query(
            PostgresQuery(
                unsafeSQL: "SELECT value FROM \(location.quotedSchema).settings WHERE name = '"
                    + HeaderFingerprintKey.settingName + "'"),
            logger: logger)
        for try await value in rows.decode(String.self) { return HeaderFingerprintKey(hex: value) }
        return nil
    }

    private static func appliedMigrations(
        _ connection: PostgresConnection, location: PostgresLocation, logger: Logger
    ) async throws -> [String] {
        var applied: [String] = []
        let rows = try await connection.query(
            PostgresQuery(
                unsafeSQL: "SELECT identifier FROM \(location.quotedSchema).schema_migrations ORDER BY identifier"),
            logger: logger)
        for try await identifier in rows.decode(String.self) { applied.append(identifier) }
        return applied
    }

    /// The statements of a migration file: each ends with a semicolon at the end of a line,
    /// outside a `$$`-quoted body (a function's); comment lines outside such a body are left out.
    static func statements(of sql: String) -> [String] {
        var statements: [String] = []
        var current: [Substring] = []
        var inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if !inBody, trimmed.hasPrefix("--") || (trimmed.isEmpty && current.isEmpty) { continue }
            current.append(line)
            if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody, trimmed.hasSuffix(";") {
                statements.append(current.joined(separator: "\n"))
                current = []
            }
        }
        let rest = current.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        if !rest.isEmpty { statements.append(rest) }
        return statements
    }

    // MARK: Errors

    /// Our error for any error of the server or the connection, naming the location without its password.
    static func mapped(_ error: any Error, location: PostgresLocation) -> PostgresCacheError {
        if let error = error as? PostgresCacheError { return error }
        return .failed(location: location.description, detail: reason(error))
    }

    /// What went wrong, in words, without a credential: the server's message when it sent one.
    static func reason(_ error: any Error) -> String {
        if let error = error as? OperationTimedOut { return error.description }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + code
            }
            switch error.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
                return "the connection failed or closed; check the address and that the server is running"
            default:
                return "\(error.code)"
            }
        }
        if let error = error as? IOError { return error.description }
        return String(describing: type(of: error))
    }
}

extension PostgresLocation {
    /// The TLS of the URL's `sslmode`.
    func tls() throws -> PostgresConnection.Configuration.TLS {
        switch sslMode {
        case "disable": return .disable
        case "prefer", "allow":
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: configuration))
        case "require":
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            return .require(try NIOSSLContext(configuration: configuration))
        case "verify-full", "verify-ca":
            return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default:
            throw PostgresCacheError.invalidURL("sslmode must be disable, prefer, require or verify-full")
        }
    }
}
