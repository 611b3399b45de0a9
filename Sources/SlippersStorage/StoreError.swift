import Slippers

/// A failure of the cache store that a user can act on.
///
/// Each case prints one readable line naming the file or collection and what
/// to do. SQLite's own `DatabaseError` passes through unchanged for failures
/// that happen after a database was opened.
public enum StoreError: Error, Equatable, Sendable {
    /// The directory that should hold the database file does not exist.
    case directoryNotFound(path: String)
    /// The database file does not exist, and the store was opened read-only.
    case fileNotFound(path: String)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// The file is an SQLite database whose content is damaged.
    case corrupt(path: String, detail: String)
    /// A newer version of Slippers migrated the file; this build does not know its schema.
    case newerSchema(path: String, unknownMigrations: [String])
    /// The file cannot be written: the store was opened read-only, or the file is read-only.
    case readOnly(path: String)
    /// The path names a directory, a device, a FIFO or a socket: SQLite is never given it.
    case notAFile(path: String, kind: String)
    /// The file is an SQLite database that holds another application's tables; it is never adopted.
    case foreignDatabase(path: String, tables: [String])
    /// The file cannot be written because its filesystem is mounted read-only.
    case readOnlyFileSystem(path: String)
    /// The file, or its directory (where SQLite keeps its `-wal` and `-shm` files), is not writable by this user.
    case permissionDenied(path: String)
    /// The file is in a read-only place and its write-ahead log holds changes not yet checkpointed.
    case uncheckpointedChanges(path: String)
    /// The disk (or the database's size limit) is full: the write was rolled back.
    case diskFull(path: String)
    /// Another process kept the file locked for longer than the store waits.
    case busy(path: String)
    /// No collection has this key.
    case collectionNotFound(key: String)
    /// The collection holds items of another type than the one asked for.
    case itemTypeMismatch(collection: String, stored: String, requested: String)
    /// A page was saved after a gap: page `index` needs page `index - 1` in the current generation.
    case pageOutOfOrder(collection: String, index: Int)
    /// A source answered with a next token it had already given: following it would loop forever.
    case tokenDidNotAdvance(collection: String, token: String)
    /// A page listed the same ids as the page before it: the server ignores the page asked for.
    case pageRepeated(collection: String, index: Int)
    /// Several pages in a row brought no item the walk had not met: the list does not end by itself.
    case listStalled(collection: String, pages: Int)
    /// A local write names an item the cache does not hold.
    case itemNotFound(type: String, key: String)
    /// A local write's JSON (an item or a merge patch) is not valid JSON.
    case invalidJSON(String)
    /// No write of the outbox has this id (it was sent, or dropped).
    case writeNotFound(id: Int64)
    /// The backend at `location` cannot do this yet (an SQLite file can).
    case unsupported(operation: String, location: String)
}

extension StoreError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .directoryNotFound(let path):
            "Cannot create the cache \(path): its directory does not exist"
        case .fileNotFound(let path):
            "No cache file at \(path)"
        case .notADatabase(let path):
            "\(path) is not an SQLite database; it was left untouched"
        case .corrupt(let path, let detail):
            "The cache \(path) is damaged (\(detail)); it was left untouched"
        case .newerSchema(let path, let unknown):
            "The cache \(path) was written by a newer Slippers (unknown migrations: "
                + "\(unknown.joined(separator: ", "))); upgrade Slippers to open it"
        case .readOnly(let path):
            "The cache \(path) is read-only; it can be read but not written"
        case .notAFile(let path, let kind):
            "\(path) is \(kind), not a cache file; nothing was opened or created"
        case .foreignDatabase(let path, let tables):
            "\(path) is an SQLite database of another application (tables: "
                + "\(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : "")); it was left untouched"
        case .readOnlyFileSystem(let path):
            "Cannot write the cache \(path): its filesystem is mounted read-only (inspection commands still read it)"
        case .permissionDenied(let path):
            "Cannot write the cache \(path): permission denied on the file or its directory, "
                + "where the -wal and -shm files go"
        case .uncheckpointedChanges(let path):
            "The cache \(path) is in a read-only place and \(path)-wal holds changes not checkpointed; "
                + "run any slippers command on it where it can be written, then read it here"
        case .diskFull(let path):
            "Disk full: cannot write the cache \(path); the pages saved before stay saved, "
                + "free some space and run again to continue"
        case .busy(let path):
            "The cache \(path) stayed locked by another process for too long; try again"
        case .collectionNotFound(let key):
            "No collection \"\(CredentialQuery.masking(key).shortenedForErrors)\" in the cache"
        case .itemTypeMismatch(let collection, let stored, let requested):
            "The collection \"\(collection)\" holds \(stored) items, not \(requested)"
        case .pageOutOfOrder(let collection, let index):
            "Cannot save page \(index) of \"\(collection)\" before page \(index - 1)"
        case .tokenDidNotAdvance(let collection, let token):
            "The source of \"\(collection)\" repeated the page token \"\(token.shortenedForErrors)\"; "
                + "stopped instead of looping"
        case .pageRepeated(let collection, let index):
            "The server sent the same items for page \(index + 1) of \"\(collection)\" as for the page before; "
                + "stopped instead of paging forever (check the pagination style)"
        case .listStalled(let collection, let pages):
            "The last \(pages) pages of \"\(collection)\" brought no item not already listed; "
                + "stopped instead of paging forever (they were not saved)"
        case .itemNotFound(let type, let key):
            "No item \(key.shortenedForErrors) of type \(type.shortenedForErrors) is cached; "
                + "only a cached item can be changed"
        case .invalidJSON(let detail):
            "Invalid JSON: \(detail)"
        case .writeNotFound(let id):
            "No write \(id) in the outbox; it was sent or dropped"
        case .unsupported(let operation, let location):
            "\(location) cannot do this: \(operation) needs an SQLite cache file"
        }
    }
}
