import Foundation
import GRDB

/// Checks a database path before SQLite opens it, so that a bad file is reported and never modified.
enum DatabaseFile {
    /// The first 16 bytes of every SQLite 3 database file.
    private static let header = Data("SQLite format 3\u{0}".utf8)

    /// Whether a file exists at `path`.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Throws when the directory that would hold `path` does not exist.
    static func checkDirectory(of path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw StoreError.directoryNotFound(path: path) }
    }

    /// Creates an empty file readable and writable by its owner only (0600).
    ///
    /// SQLite gives its `-wal` and `-shm` files the permissions of the database file.
    static func createPrivateFile(at path: String) throws {
        let created = FileManager.default.createFile(
            atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        if !created {
            throw exists(path) ? StoreError.readOnly(path: path) : StoreError.directoryNotFound(path: path)
        }
    }

    /// Throws unless the existing file at `path` is empty or starts with the SQLite header.
    static func checkHeader(of path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw StoreError.readOnly(path: path) }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: header.count)) ?? Data()
        guard prefix.isEmpty || prefix == header else { throw StoreError.notADatabase(path: path) }
    }

    /// Opens the existing file read-only and checks that this build can use its schema.
    ///
    /// Nothing is written: a damaged file or one that a newer version migrated
    /// throws before any connection that could change it is opened.
    static func validate(_ path: String) throws {
        try checkHeader(of: path)
        var configuration = Configuration()
        configuration.readonly = true
        let unknown: [String]
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            unknown = try queue.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                let known = Set(Schema.knownMigrations)
                return try Schema.migrator.appliedIdentifiers(db).filter { !known.contains($0) }.sorted()
            }
        } catch let error as DatabaseError {
            throw classify(error, path: path)
        }
        if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknownMigrations: unknown) }
    }

    /// A store error for an SQLite error met while opening `path`, or the error itself.
    static func classify(_ error: DatabaseError, path: String) -> any Error {
        switch error.resultCode {
        case .SQLITE_NOTADB: StoreError.notADatabase(path: path)
        case .SQLITE_CORRUPT:
            StoreError.corrupt(path: path, detail: error.message ?? "database disk image is malformed")
        case .SQLITE_READONLY, .SQLITE_PERM: StoreError.readOnly(path: path)
        case .SQLITE_CANTOPEN: exists(path) ? StoreError.readOnly(path: path) : StoreError.fileNotFound(path: path)
        default: error
        }
    }
}
