import Foundation
import GRDB
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct SQLiteCacheOpeningTests {
    @Test func createsANewFileReadableByItsOwnerOnlyAndMigratesIt() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        let permissions = try FileManager.default.attributesOfItem(atPath: directory.path())[.posixPermissions]
        #expect((permissions as? NSNumber)?.intValue == 0o600)
        let wal = try FileManager.default.attributesOfItem(atPath: directory.path() + "-wal")[.posixPermissions]
        #expect((wal as? NSNumber)?.intValue == 0o600)
        #expect(try store.stats().schemaVersion == "0013_reading_positions")
    }

    @Test func aClosedStoreSaysSoAndItsFileAloneHoldsWhatWasSaved() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1, 2], next: nil), at: 0, in: Fixtures.posts)
        try store.close()
        try store.close()
        let error = #expect(throws: SQLiteCacheError.self) { try store.stats() }
        #expect(error?.code == .closed)
        #expect(
            error.map { "\($0)" }
                == "The cache \(directory.path()) was closed by this program before it was used; open it again")
        #expect(throws: SQLiteCacheError.self) {
            try store.savePage(Fixtures.page([3], next: nil), at: 0, in: Fixtures.posts)
        }
        let alone = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: directory.path(), toPath: alone.path())
        #expect(try SQLiteCache(path: alone.path(), mode: .readOnly).stats().items == 2)
    }

    @Test func closingEmptiesTheLogWhileAnotherConnectionIsOpenButIdle() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1, 2], next: nil), at: 0, in: Fixtures.posts)
        let other = try DatabaseQueue(path: directory.path())
        try store.close()
        // A log left with frames would be replayed into a new file made under the same name.
        let log = try FileManager.default.attributesOfItem(atPath: directory.path() + "-wal")
        #expect((log[.size] as? Int) == 0)
        try FileManager.default.removeItem(atPath: directory.path())
        try FileManager.default.removeItem(atPath: directory.path() + "-shm")
        let again = try SQLiteCache(path: directory.path())
        #expect(try again.stats().items == 0)
        try other.close()
    }

    @Test func closingBesideAReaderOfAnotherConnectionDoesNotWaitForItAndKeepsTheFileWhole() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1, 2], next: nil), at: 0, in: Fixtures.posts)
        let reader = try DatabaseQueue(path: directory.path())
        let closed = try reader.read { db in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items")
            try store.savePage(Fixtures.page([3], next: nil), at: 0, in: Fixtures.posts)
            let clock = ContinuousClock()
            let start = clock.now
            try store.close()
            return clock.now - start
        }
        // The busy timeout is 10 s: a close that waited for the reader would take all of it.
        #expect(closed < .seconds(5))
        try reader.close()
        let alone = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: directory.path(), toPath: alone.path())
        #expect(try SQLiteCache(path: alone.path(), mode: .readOnly).stats().items == 3)
    }

    @Test func opensInWALModeWithABusyTimeout() throws {
        let directory = try TemporaryDirectory()
        _ = try SQLiteCache(path: directory.path())
        let queue = try DatabaseQueue(path: directory.path())
        #expect(try queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func reopeningKeepsWhatWasSaved() throws {
        let directory = try TemporaryDirectory()
        try SQLiteCache(path: directory.path()).savePage(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts)
        let reopened = try SQLiteCache(path: directory.path())
        #expect(try Fixtures.ids(#require(try reopened.page(at: 0, in: Fixtures.posts.key)).items) == [1, 2])
    }

    @Test func aFileMigratedByANewerVersionIsRefusedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        try SQLiteCache(path: directory.path()).close()
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('0999_from_the_future')")
        }
        try queue.close()
        let before = try contents(of: directory.path())
        #expect(
            throws: SQLiteCacheError.newerSchema(path: directory.path(), unknownMigrations: ["0999_from_the_future"])
        ) {
            try SQLiteCache(path: directory.path())
        }
        #expect(try contents(of: directory.path()) == before)
        #expect(
            SQLiteCacheError.newerSchema(path: "c.sqlite", unknownMigrations: ["0999_x"]).description
                == "The cache c.sqlite was written by a newer Slippers (unknown migrations: 0999_x); "
                + "upgrade Slippers to open it")
    }

    @Test func aFileOfRandomBytesIsReportedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: directory.path()))
        #expect(throws: SQLiteCacheError.notADatabase(path: directory.path())) {
            try SQLiteCache(path: directory.path())
        }
        #expect(try contents(of: directory.path()) == bytes)
    }

    @Test func aDatabaseWithADamagedBodyIsReportedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        for index in 0..<20 {
            try store.savePage(
                Fixtures.page(Array(index * 50 + 1...index * 50 + 50), next: "n"), at: index, in: Fixtures.posts)
        }
        try store.close()
        // Keep the 100-byte header, overwrite the schema page and the rest with garbage.
        var bytes = try contents(of: directory.path())
        for offset in 100..<bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31) }
        try bytes.write(to: URL(fileURLWithPath: directory.path()))
        #expect {
            try SQLiteCache(path: directory.path())
        } throws: { error in
            guard let error = error as? SQLiteCacheError else { return false }
            return error.code == .corrupt || error.code == .notADatabase
        }
        #expect(try contents(of: directory.path()) == bytes)
    }

    @Test func aTextFileIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        let text = Data("name,score\nann,3\n".utf8)
        try text.write(to: URL(fileURLWithPath: directory.path("notes.csv")))
        #expect(throws: SQLiteCacheError.notADatabase(path: directory.path("notes.csv"))) {
            try SQLiteCache(path: directory.path("notes.csv"))
        }
        #expect(try contents(of: directory.path("notes.csv")) == text)
        #expect(
            SQLiteCacheError.notADatabase(path: "notes.csv").description
                == "notes.csv is not an SQLite database; it was left untouched")
    }

    @Test func aMissingDirectoryIsReportedAndNothingIsCreated() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("missing/cache.sqlite").path
        #expect(throws: SQLiteCacheError.directoryNotFound(path: path)) { try SQLiteCache(path: path) }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("missing").path))
    }

    @Test func aReadOnlyFileCanBeReadButNotWritten() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(Fixtures.page([1, 2, 3], next: nil), at: 0, in: Fixtures.posts)
        try store.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: directory.path())
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.path()) }
        let before = try contents(of: directory.path())

        // Root ignores file permissions; the read-only mode is what a tool uses to inspect a file it must not change.
        let reader = try SQLiteCache(path: directory.path(), mode: .readOnly)
        #expect(try Fixtures.ids(#require(try reader.cachedList(Fixtures.posts.key)).items) == [1, 2, 3])
        #expect(throws: SQLiteCacheError.readOnly(path: directory.path())) {
            try reader.savePage(Fixtures.page([4], next: nil), at: 0, in: Fixtures.posts)
        }
        #expect(throws: SQLiteCacheError.readOnly(path: directory.path())) { try reader.invalidateAll() }
        try reader.close()
        if getuid() != 0 {
            #expect(throws: SQLiteCacheError.readOnly(path: directory.path())) {
                try SQLiteCache(path: directory.path())
            }
        }
        #expect(try contents(of: directory.path()) == before)
    }

    @Test func readOnlyModeDoesNotCreateAMissingFile() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: SQLiteCacheError.fileNotFound(path: directory.path())) {
            try SQLiteCache(path: directory.path(), mode: .readOnly)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path()))
    }

    // MARK: - Only our files

    @Test func aDatabaseOfAnotherApplicationIsRefusedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        try queue.write { db in
            try db.execute(
                sql: "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'ann')")
        }
        try queue.close()
        let before = try contents(of: directory.path())
        #expect(throws: SQLiteCacheError.foreignDatabase(path: directory.path(), tables: ["users"])) {
            try SQLiteCache(path: directory.path())
        }
        #expect(throws: SQLiteCacheError.foreignDatabase(path: directory.path(), tables: ["users"])) {
            try SQLiteCache(path: directory.path(), mode: .readOnly)
        }
        #expect(try contents(of: directory.path()) == before)
        #expect(
            SQLiteCacheError.foreignDatabase(path: "app.db", tables: ["users"]).description
                == "app.db is an SQLite database of another application (tables: users); it was left untouched")
    }

    @Test func anotherGRDBApplicationsDatabaseIsNotTakenForANewerCache() throws {
        let directory = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: directory.path())
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createUsers") { db in try db.execute(sql: "CREATE TABLE users (id INTEGER)") }
        try migrator.migrate(queue)
        try queue.close()
        #expect(throws: SQLiteCacheError.foreignDatabase(path: directory.path(), tables: ["grdb_migrations", "users"]))
        {
            try SQLiteCache(path: directory.path())
        }
    }

    @Test func anEmptyFileAndAnEmptyDatabaseAreAdopted() throws {
        let directory = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.path("empty.sqlite"), contents: nil))
        try SQLiteCache(path: directory.path("empty.sqlite")).savePage(
            Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
        try DatabaseQueue(path: directory.path("blank.sqlite")).write { db in
            try db.execute(sql: "PRAGMA user_version = 0")
        }
        try SQLiteCache(path: directory.path("blank.sqlite")).savePage(
            Fixtures.page([1], next: nil), at: 0, in: Fixtures.posts)
    }

    @Test func aDirectoryIsRefusedBeforeSQLiteSeesItAndNothingIsCreatedBesideIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("cache.d")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        for mode in [SQLiteCache.Mode.readWrite, .readOnly] {
            #expect(throws: SQLiteCacheError.notAFile(path: path, kind: "a directory")) {
                try SQLiteCache(path: path, mode: mode)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["cache.d"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
        #expect(
            SQLiteCacheError.notAFile(path: "d", kind: "a directory").description
                == "d is a directory, not a cache file; nothing was opened or created")
    }

    @Test func aFIFOIsRefusedWithoutBeingOpened() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("pipe")
        #expect(mkfifo(path, 0o600) == 0)
        // Opening a FIFO for reading would block until a writer comes: the refusal must come before any open.
        #expect(throws: SQLiteCacheError.notAFile(path: path, kind: "a FIFO (named pipe)")) {
            try SQLiteCache(path: path)
        }
        #expect(throws: SQLiteCacheError.notAFile(path: path, kind: "a FIFO (named pipe)")) {
            try SQLiteCache(path: path, mode: .readOnly)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["pipe"])
    }

    @Test func aDeviceIsRefusedAndNothingIsCreatedBesideIt() throws {
        #expect(throws: SQLiteCacheError.notAFile(path: "/dev/null", kind: "a device")) {
            try SQLiteCache(path: "/dev/null")
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
    }

    // MARK: - Write errors that say why

    @Test func aMissingDirectoryIsToldApartFromAReadOnlyOne() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("missing/cache.sqlite").path
        #expect(throws: SQLiteCacheError.directoryNotFound(path: path)) { try SQLiteCache(path: path) }
        #expect(
            SQLiteCacheError.readOnlyFileSystem(path: "c.sqlite").description
                == "Cannot write the cache c.sqlite: its filesystem is mounted read-only (inspection commands still read it)"
        )
        #expect(
            SQLiteCacheError.permissionDenied(path: "c.sqlite").description
                == "Cannot write the cache c.sqlite: permission denied on the file or its directory, "
                + "where the -wal and -shm files go")
    }

    @Test(.enabled(if: ScratchMount.isAvailable, "needs root and tmpfs mounts"))
    func aCacheOnAReadOnlyFileSystemIsReadAndWritesSayWhy() throws {
        let mount = try ScratchMount()
        let path = mount.directory + "/cache.sqlite"
        let store = try SQLiteCache(path: path)
        try store.savePage(Fixtures.page([1, 2, 3], next: "2"), at: 0, in: Fixtures.posts)
        try store.close()
        try mount.makeReadOnly()
        let before = try contents(of: path)

        let reader = try SQLiteCache(path: path, mode: .readOnly)
        #expect(try Fixtures.ids(#require(try reader.cachedList(Fixtures.posts.key)).items) == [1, 2, 3])
        #expect(try reader.lists().map(\.key) == [Fixtures.posts.key])
        try reader.close()
        #expect(throws: SQLiteCacheError.readOnlyFileSystem(path: path)) { try SQLiteCache(path: path) }
        #expect(throws: SQLiteCacheError.readOnlyFileSystem(path: mount.directory + "/new.sqlite")) {
            try SQLiteCache(path: mount.directory + "/new.sqlite")
        }
        #expect(try contents(of: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.directory) == ["cache.sqlite"])
    }

    @Test(.enabled(if: ScratchMount.isAvailable, "needs root and tmpfs mounts"))
    func aReadOnlyCacheWhoseLogWasNotCheckpointedSaysSo() throws {
        let mount = try ScratchMount()
        let path = mount.directory + "/cache.sqlite"
        let store = try SQLiteCache(path: mount.directory + "/live.sqlite")
        try store.savePage(Fixtures.page([1, 2, 3], next: "2"), at: 0, in: Fixtures.posts)
        // A copy taken while the cache was open: its page is in the log, not yet in the database file.
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: mount.directory + "/live.sqlite" + suffix, toPath: path + suffix)
        }
        try store.close()
        try mount.makeReadOnly()
        #expect(throws: SQLiteCacheError.uncheckpointedChanges(path: path)) {
            try SQLiteCache(path: path, mode: .readOnly)
        }
    }
}
