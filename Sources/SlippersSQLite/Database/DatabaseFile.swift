import Foundation
import GRDB
import SlippersStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks a database path before SQLite opens it, so that a bad file is reported and never modified.
enum DatabaseFile {
    /// The first 16 bytes of every SQLite 3 database file.
    private static let header = Data("SQLite format 3\u{0}".utf8)

    /// The migration that creates our tables: a database whose migrations lack it is another application's.
    private static var firstMigration: String? { Schema.knownMigrations.first }

    /// What a path names, as `stat` sees it (symbolic links followed).
    enum Kind: Equatable {
        case missing
        case regularFile
        case directory
        case device
        case fifo
        case socket
        case other

        /// The words for an error message: "a directory", "a device", …
        var phrase: String {
            switch self {
            case .missing: "missing"
            case .regularFile: "a regular file"
            case .directory: "a directory"
            case .device: "a device"
            case .fifo: "a FIFO (named pipe)"
            case .socket: "a socket"
            case .other: "not a regular file"
            }
        }
    }

    /// Whether a directory can receive new files (the `-wal` and `-shm` files SQLite creates beside a database).
    enum Writability: Equatable {
        case writable
        /// The filesystem is mounted read-only.
        case readOnlyFileSystem
        /// This user may not create files there.
        case permissionDenied
        /// The directory does not exist.
        case missing
    }

    /// What `path` names.
    static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        case S_IFCHR, S_IFBLK: return .device
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    /// Whether a file exists at `path`.
    static func exists(_ path: String) -> Bool {
        kind(of: path) != .missing
    }

    /// Throws unless `path` is missing or a regular file: a directory, a device or a FIFO never reaches SQLite.
    static func checkIsRegularFileOrMissing(_ path: String) throws {
        let kind = kind(of: path)
        guard kind == .missing || kind == .regularFile else {
            throw SQLiteCacheError.notAFile(path: path, kind: kind.phrase)
        }
    }

    /// The directory that holds (or would hold) `path`.
    static func directory(of path: String) -> String {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return directory.isEmpty ? "." : directory
    }

    /// Whether new files can be created in the directory of `path`.
    static func writability(ofDirectoryOf path: String) -> Writability {
        let directory = directory(of: path)
        guard kind(of: directory) == .directory else { return .missing }
        var info = statvfs()
        if statvfs(directory, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 { return .readOnlyFileSystem }
        if access(directory, W_OK | X_OK) != 0 {
            return errno == EROFS ? .readOnlyFileSystem : .permissionDenied
        }
        return .writable
    }

    /// Throws the error that explains why a file at `path` cannot be written, if it cannot.
    ///
    /// A missing directory, a read-only filesystem and a permission problem
    /// (on the file or on its directory, where SQLite creates its `-wal` and
    /// `-shm` files) are told apart.
    static func checkWritable(_ path: String) throws {
        switch writability(ofDirectoryOf: path) {
        case .missing: throw SQLiteCacheError.directoryNotFound(path: path)
        case .readOnlyFileSystem: throw SQLiteCacheError.readOnlyFileSystem(path: path)
        case .permissionDenied: throw SQLiteCacheError.permissionDenied(path: path)
        case .writable: break
        }
        if exists(path), access(path, R_OK | W_OK) != 0 {
            throw errno == EROFS
                ? SQLiteCacheError.readOnlyFileSystem(path: path) : SQLiteCacheError.permissionDenied(path: path)
        }
    }

    /// Throws when the directory that would hold `path` does not exist.
    static func checkDirectory(of path: String) throws {
        guard kind(of: directory(of: path)) == .directory else { throw SQLiteCacheError.directoryNotFound(path: path) }
    }

    /// Creates an empty file readable and writable by its owner only (0600), unless one exists already.
    ///
    /// The file is created with `O_EXCL`: when several processes create the
    /// same cache at once, one creates it and none replaces what another has
    /// begun to write. SQLite gives its `-wal` and `-shm` files the
    /// permissions of the database file.
    static func createPrivateFile(at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        switch errno {
        case EEXIST: return
        case ENOENT, ENOTDIR: throw SQLiteCacheError.directoryNotFound(path: path)
        case EROFS: throw SQLiteCacheError.readOnlyFileSystem(path: path)
        case EACCES, EPERM: throw SQLiteCacheError.permissionDenied(path: path)
        case ENOSPC, EDQUOT: throw SQLiteCacheError.diskFull(path: path)
        default: throw SQLiteCacheError.permissionDenied(path: path)
        }
    }

    /// Creates the cache at `path`, migrated, in one step: other processes see no file or a whole cache.
    ///
    /// The cache is built under a temporary name beside `path`, then linked
    /// to `path`, which never replaces a file: when another process created
    /// the cache first, this one's copy is discarded and theirs is used. Where
    /// the filesystem has no hard links, an empty file is created in place
    /// (`O_EXCL`) and migrated there, under the lock.
    static func createMigrated(at path: String, busyTimeout: TimeInterval) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            .path
        try createPrivateFile(at: temporary)
        defer {
            unlink(temporary)
            unlink(temporary + "-journal")
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            let queue = try DatabaseQueue(path: temporary, configuration: configuration)
            try Schema.createAll(in: queue)
            try queue.close()
        } catch let error as DatabaseError {
            throw classify(error, path: path)
        }
        guard link(temporary, path) != 0 else { return }
        switch errno {
        case EEXIST: return
        case ENOENT, ENOTDIR: throw SQLiteCacheError.directoryNotFound(path: path)
        case EROFS: throw SQLiteCacheError.readOnlyFileSystem(path: path)
        case EACCES: throw SQLiteCacheError.permissionDenied(path: path)
        case ENOSPC, EDQUOT: throw SQLiteCacheError.diskFull(path: path)
        default: try createPrivateFile(at: path)
        }
    }

    /// Throws unless the existing file at `path` is empty or starts with the SQLite header.
    static func checkHeader(of path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SQLiteCacheError.permissionDenied(path: path)
        }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: header.count)) ?? Data()
        guard prefix.isEmpty || prefix == header else { throw SQLiteCacheError.notADatabase(path: path) }
    }

    /// Whether the write-ahead log of `path` holds changes not yet copied into the database file.
    static func hasUncheckpointedChanges(_ path: String) -> Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return ((attributes?[.size] as? NSNumber)?.int64Value ?? 0) > 0
    }

    /// The configuration of a connection that only reads; `busyTimeout` lets it wait for a writer's lock.
    static func readOnlyConfiguration(busyTimeout: TimeInterval) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        return configuration
    }

    /// The URI that opens `path` as immutable: SQLite reads it without locks and without `-wal` or `-shm` files.
    ///
    /// Only for a file nothing can write: one in a read-only place whose log holds nothing.
    static func immutableURI(for path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        return "file:\(encoded)?immutable=1"
    }

    /// Opens the existing file read-only and checks that it is ours and that this build can use its schema.
    ///
    /// Nothing is written: a damaged file, another application's database,
    /// or one that a newer version migrated throws before any connection
    /// that could change it is opened.
    ///
    /// - parameter openPath: What SQLite opens: `path`, or its immutable URI in a read-only place.
    static func validate(_ path: String, opening openPath: String? = nil, busyTimeout: TimeInterval) throws {
        try checkHeader(of: path)
        let unknown: [String]
        do {
            let queue = try DatabaseQueue(
                path: openPath ?? path, configuration: readOnlyConfiguration(busyTimeout: busyTimeout))
            defer { try? queue.close() }
            unknown = try queue.read { db in
                // Reads the whole schema: a damaged first page fails here, before anything can write.
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                let tables = try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                // An empty file (or one created and not migrated yet) is adopted.
                guard !tables.isEmpty else { return [] }
                let applied = try tables.contains("grdb_migrations") ? Schema.migrator.appliedIdentifiers(db) : []
                guard let firstMigration, applied.contains(firstMigration) else {
                    throw SQLiteCacheError.foreignDatabase(path: path, tables: tables.sorted())
                }
                let known = Set(Schema.knownMigrations)
                return applied.filter { !known.contains($0) }.sorted()
            }
        } catch let error as DatabaseError {
            throw classify(error, path: path)
        }
        if !unknown.isEmpty { throw SQLiteCacheError.newerSchema(path: path, unknownMigrations: unknown) }
    }

    /// A cache error for an SQLite error met while opening or writing `path`, or the error itself.
    static func classify(_ error: DatabaseError, path: String) -> any Error {
        switch error.resultCode {
        case .SQLITE_NOTADB: SQLiteCacheError.notADatabase(path: path)
        case .SQLITE_CORRUPT:
            SQLiteCacheError.corrupt(path: path, detail: error.message ?? "database disk image is malformed")
        case .SQLITE_FULL: SQLiteCacheError.diskFull(path: path)
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            if !exists(path) {
                SQLiteCacheError.fileNotFound(path: path)
            } else {
                writeError(path)
            }
        case .SQLITE_BUSY, .SQLITE_LOCKED: SQLiteCacheError.busy(path: path)
        default: error
        }
    }

    /// The reason `path` cannot be written, as thrown by ``checkWritable(_:)``.
    private static func writeError(_ path: String) -> any Error {
        do {
            try checkWritable(path)
            return SQLiteCacheError.readOnly(path: path)
        } catch {
            return error
        }
    }
}
