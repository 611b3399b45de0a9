import Slippers

/// A failure of an SQLite cache file that a user can act on: a file that cannot be opened or
/// written, or a local write the cache cannot take.
///
/// The error is its ``code`` and the context the code needs (the file's path, its tables, the
/// item…); a new code is not a breaking change. Compare codes with `==`:
///
/// ```swift
/// do {
///     cache = try SQLiteCache(path: path, mode: .readOnly)
/// } catch let error as SQLiteCacheError where error.code == .fileNotFound {
///     print("nothing cached yet at", error.path ?? path)
/// }
/// ```
///
/// Its ``description`` is one readable line naming the file and what to do. What every backend
/// reports the same way (a list that is not cached, a page out of order…) is a `CacheError`;
/// SQLite's own `DatabaseError` passes through unchanged for failures that happen after a
/// database was opened.
public struct SQLiteCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: one of the static members, compared with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case directoryNotFound, fileNotFound, notADatabase, corrupt, newerSchema, readOnly, notAFile
            case foreignDatabase, readOnlyFileSystem, permissionDenied, uncheckpointedChanges, diskFull, busy
            case itemNotFound, invalidJSON, writeNotFound, notSearchable, closed
        }

        fileprivate let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The directory that should hold the database file does not exist.
        public static let directoryNotFound = Code(.directoryNotFound)
        /// The database file does not exist, and the cache was opened read-only.
        public static let fileNotFound = Code(.fileNotFound)
        /// The file exists but is not an SQLite database.
        public static let notADatabase = Code(.notADatabase)
        /// The file is an SQLite database whose content is damaged.
        public static let corrupt = Code(.corrupt)
        /// A newer version of Slippers migrated the file; this build does not know its schema.
        public static let newerSchema = Code(.newerSchema)
        /// The file cannot be written: the cache was opened read-only, or the file is read-only.
        public static let readOnly = Code(.readOnly)
        /// The path names a directory, a device, a FIFO or a socket: SQLite is never given it.
        public static let notAFile = Code(.notAFile)
        /// The file is an SQLite database that holds another application's tables; it is never adopted.
        public static let foreignDatabase = Code(.foreignDatabase)
        /// The file cannot be written because its filesystem is mounted read-only.
        public static let readOnlyFileSystem = Code(.readOnlyFileSystem)
        /// The file, or its directory (where SQLite keeps its `-wal` and `-shm` files), is not writable by this user.
        public static let permissionDenied = Code(.permissionDenied)
        /// The file is in a read-only place and its write-ahead log holds changes not yet checkpointed.
        public static let uncheckpointedChanges = Code(.uncheckpointedChanges)
        /// The disk (or the database's size limit) is full: the write was rolled back.
        public static let diskFull = Code(.diskFull)
        /// Another process kept the file locked for longer than the cache waits.
        public static let busy = Code(.busy)
        /// A local write names an item the cache does not hold.
        public static let itemNotFound = Code(.itemNotFound)
        /// A local write's JSON (an item or a merge patch) is not valid JSON.
        public static let invalidJSON = Code(.invalidJSON)
        /// No write of the outbox has this id (it was sent, or dropped).
        public static let writeNotFound = Code(.writeNotFound)
        /// A search of a read-only store named an item type that was never indexed for search: the
        /// first search of a type indexes its items, which is a write.
        public static let notSearchable = Code(.notSearchable)
        /// The cache was closed (``SQLiteCache/close()``): it cannot be used any more.
        public static let closed = Code(.closed)

        /// The code's name, as in `fileNotFound`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The cache file's path, for the codes about a file.
    public let path: String?
    /// What the code says more: the damage SQLite reported (``Code/corrupt``), what the path names
    /// (``Code/notAFile``: "a directory", "a device"…), or what is wrong with the JSON (``Code/invalidJSON``).
    package let detail: String?
    /// The migrations the file holds that this build does not know, for ``Code/newerSchema``.
    let unknownMigrations: [String]
    /// The tables of another application the file holds, for ``Code/foreignDatabase``.
    let tables: [String]
    /// The type the item is filed under, for ``Code/itemNotFound``; the type searched, for ``Code/notSearchable``.
    let itemType: String?
    /// The item's id, for ``Code/itemNotFound``.
    public let itemKey: String?
    /// The outbox write's id, for ``Code/writeNotFound``.
    let writeID: Int64?

    private init(
        _ code: Code, path: String? = nil, detail: String? = nil, unknownMigrations: [String] = [],
        tables: [String] = [], itemType: String? = nil, itemKey: String? = nil, writeID: Int64? = nil
    ) {
        self.code = code
        self.path = path
        self.detail = detail
        self.unknownMigrations = unknownMigrations
        self.tables = tables
        self.itemType = itemType
        self.itemKey = itemKey
        self.writeID = writeID
    }

    /// The directory that should hold the file at `path` does not exist.
    package static func directoryNotFound(path: String) -> SQLiteCacheError {
        SQLiteCacheError(.directoryNotFound, path: path)
    }

    /// No file at `path`, opened read-only.
    public static func fileNotFound(path: String) -> SQLiteCacheError { SQLiteCacheError(.fileNotFound, path: path) }

    /// The file at `path` is not an SQLite database.
    package static func notADatabase(path: String) -> SQLiteCacheError { SQLiteCacheError(.notADatabase, path: path) }

    /// The database at `path` is damaged, as SQLite's `detail` says.
    static func corrupt(path: String, detail: String) -> SQLiteCacheError {
        SQLiteCacheError(.corrupt, path: path, detail: detail)
    }

    /// The file at `path` holds `unknownMigrations`, from a newer Slippers.
    package static func newerSchema(path: String, unknownMigrations: [String]) -> SQLiteCacheError {
        SQLiteCacheError(.newerSchema, path: path, unknownMigrations: unknownMigrations)
    }

    /// The file at `path` cannot be written.
    public static func readOnly(path: String) -> SQLiteCacheError { SQLiteCacheError(.readOnly, path: path) }

    /// `path` names `kind` ("a directory", "a device"…), not a file.
    package static func notAFile(path: String, kind: String) -> SQLiteCacheError {
        SQLiteCacheError(.notAFile, path: path, detail: kind)
    }

    /// The database at `path` holds another application's `tables`.
    package static func foreignDatabase(path: String, tables: [String]) -> SQLiteCacheError {
        SQLiteCacheError(.foreignDatabase, path: path, tables: tables)
    }

    /// The file at `path` is on a filesystem mounted read-only.
    package static func readOnlyFileSystem(path: String) -> SQLiteCacheError {
        SQLiteCacheError(.readOnlyFileSystem, path: path)
    }

    /// The file at `path`, or its directory, is not writable by this user.
    package static func permissionDenied(path: String) -> SQLiteCacheError {
        SQLiteCacheError(.permissionDenied, path: path)
    }

    /// The file at `path` is in a read-only place with changes in its write-ahead log.
    package static func uncheckpointedChanges(path: String) -> SQLiteCacheError {
        SQLiteCacheError(.uncheckpointedChanges, path: path)
    }

    /// The disk holding the file at `path` is full.
    static func diskFull(path: String) -> SQLiteCacheError { SQLiteCacheError(.diskFull, path: path) }

    /// The cache of the file at `path` was closed before it was used.
    public static func closed(path: String) -> SQLiteCacheError { SQLiteCacheError(.closed, path: path) }

    /// Another process kept the file at `path` locked for too long.
    package static func busy(path: String) -> SQLiteCacheError { SQLiteCacheError(.busy, path: path) }

    /// The items of `type` in the read-only file at `path` are not indexed for search yet.
    package static func notSearchable(path: String, type: String) -> SQLiteCacheError {
        SQLiteCacheError(.notSearchable, path: path, itemType: type)
    }

    /// No item `key` of `type` is cached.
    package static func itemNotFound(type: String, key: String) -> SQLiteCacheError {
        SQLiteCacheError(.itemNotFound, itemType: type, itemKey: key)
    }

    /// A local write's JSON is not valid, as `detail` says.
    static func invalidJSON(_ detail: String) -> SQLiteCacheError { SQLiteCacheError(.invalidJSON, detail: detail) }

    /// No write `id` is in the outbox.
    package static func writeNotFound(id: Int64) -> SQLiteCacheError { SQLiteCacheError(.writeNotFound, writeID: id) }

    public var description: String {
        let path = self.path ?? ""
        let detail = self.detail ?? ""
        return switch code.base {
        case .directoryNotFound:
            "Cannot create the cache \(path): its directory does not exist"
        case .fileNotFound:
            "No cache file at \(path)"
        case .notADatabase:
            "\(path) is not an SQLite database; it was left untouched"
        case .corrupt:
            "The cache \(path) is damaged (\(detail)); it was left untouched"
        case .newerSchema:
            "The cache \(path) was written by a newer Slippers (unknown migrations: "
                + "\(unknownMigrations.joined(separator: ", "))); upgrade Slippers to open it"
        case .readOnly:
            "The cache \(path) is read-only; it can be read but not written"
        case .notAFile:
            "\(path) is \(detail), not a cache file; nothing was opened or created"
        case .foreignDatabase:
            "\(path) is an SQLite database of another application (tables: "
                + "\(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : "")); it was left untouched"
        case .readOnlyFileSystem:
            "Cannot write the cache \(path): its filesystem is mounted read-only (inspection commands still read it)"
        case .permissionDenied:
            "Cannot write the cache \(path): permission denied on the file or its directory, "
                + "where the -wal and -shm files go"
        case .uncheckpointedChanges:
            "The cache \(path) is in a read-only place and \(path)-wal holds changes not checkpointed; "
                + "run any slippers command on it where it can be written, then read it here"
        case .diskFull:
            "Disk full: cannot write the cache \(path); the pages saved before stay saved, "
                + "free some space and run again to continue"
        case .busy:
            "The cache \(path) stayed locked by another process for too long; try again"
        case .itemNotFound:
            "No item \((itemKey ?? "").shortenedForErrors) of type \((itemType ?? "").shortenedForErrors) is cached; "
                + "only a cached item can be changed"
        case .invalidJSON:
            "Invalid JSON: \(detail)"
        case .writeNotFound:
            "No write \(writeID ?? 0) in the outbox; it was sent or dropped"
        case .closed:
            "The cache \(path) was closed by this program before it was used; open it again"
        case .notSearchable:
            "The items of \((itemType ?? "").shortenedForErrors) in the cache \(path) are not indexed for search yet, "
                + "and the file is opened read-only; search it once where it can be written, which indexes them"
        }
    }
}
