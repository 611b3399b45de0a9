/// Why a PostgreSQL cache cannot be opened or used: one line that names the location without its password.
///
/// The error is its ``code`` and the context the code needs; a new code is not a breaking change.
/// Compare codes with `==`:
///
/// ```swift
/// do {
///     cache = try await PostgresCache.open(location)
/// } catch let error as PostgresCacheError where error.code == .cannotConnect {
///     print("PostgreSQL is not reachable:", error.detail ?? "")
/// }
/// ```
///
/// What every backend reports the same way (a list that is not cached, a page out of
/// order…) is a `CacheError`.
public struct PostgresCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: one of the static members, compared with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case invalidURL, cannotConnect, foreignSchema, newerSchema, failed
        }

        fileprivate let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The URL is not a PostgreSQL location we can use.
        public static let invalidURL = Code(.invalidURL)
        /// The server could not be reached, or refused the connection or its credentials.
        public static let cannotConnect = Code(.cannotConnect)
        /// The schema exists but was not made by Slippers: it is left untouched.
        public static let foreignSchema = Code(.foreignSchema)
        /// The schema holds migrations this binary does not know: it was made by a newer release.
        public static let newerSchema = Code(.newerSchema)
        /// The server answered a statement with an error.
        public static let failed = Code(.failed)

        /// The code's name, as in `cannotConnect`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The database's location without its password; `nil` for ``Code/invalidURL``.
    public let location: String?
    /// Why, in words: what is wrong with the URL, why the connection failed, or the server's message.
    public let detail: String?
    /// The migrations the schema holds that this binary does not know, for ``Code/newerSchema``.
    public let unknownMigrations: [String]

    private init(_ code: Code, location: String? = nil, detail: String? = nil, unknownMigrations: [String] = []) {
        self.code = code
        self.location = location
        self.detail = detail
        self.unknownMigrations = unknownMigrations
    }

    /// The URL is not a PostgreSQL location we can use, for `reason`.
    public static func invalidURL(_ reason: String) -> PostgresCacheError {
        PostgresCacheError(.invalidURL, detail: reason)
    }

    /// The server at `location` could not be reached, or refused the connection, for `reason`.
    public static func cannotConnect(location: String, reason: String) -> PostgresCacheError {
        PostgresCacheError(.cannotConnect, location: location, detail: reason)
    }

    /// The schema at `location` exists and was not made by Slippers.
    public static func foreignSchema(location: String) -> PostgresCacheError {
        PostgresCacheError(.foreignSchema, location: location)
    }

    /// The schema at `location` holds `unknownMigrations`, from a newer Slippers.
    public static func newerSchema(location: String, unknownMigrations: [String]) -> PostgresCacheError {
        PostgresCacheError(.newerSchema, location: location, unknownMigrations: unknownMigrations)
    }

    /// The server at `location` answered a statement with an error, as `detail` says.
    public static func failed(location: String, detail: String) -> PostgresCacheError {
        PostgresCacheError(.failed, location: location, detail: detail)
    }

    public var description: String {
        let location = self.location ?? ""
        let detail = self.detail ?? ""
        return switch code.base {
        case .invalidURL:
            "Not a PostgreSQL location: \(detail)"
        case .cannotConnect:
            "Cannot connect to \(location): \(detail)"
        case .foreignSchema:
            "The schema of \(location) exists and was not made by Slippers; it is left untouched "
                + "(choose another with ?schema=NAME)"
        case .newerSchema:
            "The cache at \(location) was made by a newer Slippers (migrations "
                + "\(unknownMigrations.joined(separator: ", "))); it is left untouched: upgrade slippers"
        case .failed:
            "PostgreSQL at \(location): \(detail)"
        }
    }
}
