/// Why a PostgreSQL cache cannot be opened or used: each case prints one line that names the
/// location without its password.
public enum PostgresCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not a PostgreSQL location we can use.
    case invalidURL(String)
    /// The server could not be reached, or refused the connection or its credentials.
    case cannotConnect(location: String, reason: String)
    /// The schema exists but was not made by Slippers: it is left untouched.
    case foreignSchema(location: String)
    /// The schema holds migrations this binary does not know: it was made by a newer release.
    case newerSchema(location: String, unknownMigrations: [String])
    /// The server answered a statement with an error.
    case failed(location: String, detail: String)

    public var description: String {
        switch self {
        case .invalidURL(let reason):
            "Not a PostgreSQL location: \(reason)"
        case .cannotConnect(let location, let reason):
            "Cannot connect to \(location): \(reason)"
        case .foreignSchema(let location):
            "The schema of \(location) exists and was not made by Slippers; it is left untouched "
                + "(choose another with ?schema=NAME)"
        case .newerSchema(let location, let unknown):
            "The cache at \(location) was made by a newer Slippers (migrations \(unknown.joined(separator: ", "))); "
                + "it is left untouched: upgrade slippers"
        case .failed(let location, let detail):
            "PostgreSQL at \(location): \(detail)"
        }
    }
}
