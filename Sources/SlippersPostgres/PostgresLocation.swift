import Foundation

/// Where a PostgreSQL cache lives: `postgres://user[:password]@host[:port]/database[?schema=name]`.
///
/// The password comes from the URL, else from `PGPASSWORD`; it is never printed:
/// ``description`` shows `***` in its place, and every error of this module names the
/// location by its description. The schema holds every table of the cache (`slippers` unless
/// the URL's `schema` parameter names another).
///
/// ```swift
/// let location = try PostgresLocation("postgres://sync@db.internal:5432/cache")
/// print(location)  // postgres://sync@db.internal:5432/cache?schema=slippers
/// ```
public struct PostgresLocation: Hashable, Sendable, CustomStringConvertible {
    /// The server's host name or address.
    public var host: String
    /// The server's port; 5432 unless the URL gives one.
    public var port: Int
    /// The user to connect as.
    package var username: String
    /// The password, from the URL or `PGPASSWORD`; `nil` for none.
    public var password: String?
    /// The database.
    package var database: String
    /// The schema that holds the cache's tables.
    public var schema: String
    /// TLS, as libpq's `sslmode`: `prefer` unless the URL says `disable`, `require` or `verify-full`.
    package var sslMode: String

    /// The schema used unless the URL names one.
    static let defaultSchema = "slippers"

    /// Whether `text` is a PostgreSQL URL (`postgres://` or `postgresql://`) rather than a file path.
    package static func isPostgresURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads a location from its URL; `environment` supplies `PGPASSWORD` when the URL has no password.
    ///
    /// - throws: ``PostgresCacheError/invalidURL(_:)`` naming what is wrong, without the password.
    public init(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isPostgresURL(url), let components = URLComponents(string: url) else {
            throw PostgresCacheError.invalidURL("a PostgreSQL URL reads postgres://user@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresCacheError.invalidURL("the URL names no host")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresCacheError.invalidURL("the URL names no user (postgres://user@host/database)")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresCacheError.invalidURL("the URL names no database (postgres://user@host/database)")
        }
        let schema = components.queryItems?.first { $0.name == "schema" }?.value ?? Self.defaultSchema
        guard Self.isIdentifier(schema) else {
            throw PostgresCacheError.invalidURL(
                "the schema must be a lowercase name of letters, digits and underscores, not \(schema.prefix(64))")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 } ?? environment["PGPASSWORD"]
        self.database = database.removingPercentEncoding ?? database
        self.schema = schema
        self.sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(sslMode) else {
            throw PostgresCacheError.invalidURL("sslmode must be disable, prefer, require or verify-full")
        }
    }

    /// The URL with `***` for the password, and the schema.
    public var description: String {
        let credential = password == nil ? username : username + ":***"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(credential)@\(shownHost):\(port)/\(database)?schema=\(schema)"
    }

    /// The schema's name quoted for SQL; safe because ``init(_:environment:)`` admits identifiers only.
    var quotedSchema: String { "\"\(schema)\"" }

    /// Whether `name` is a plain lowercase SQL identifier of at most 63 bytes.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.utf8.count <= 63 else { return false }
        let letters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz_")
        let rest = letters.union(CharacterSet(charactersIn: "0123456789"))
        return letters.contains(first) && name.unicodeScalars.allSatisfy { rest.contains($0) }
    }
}
