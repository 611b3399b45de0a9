import Foundation
import SlippersTestSupport
import Testing

/// Every command on a file it cannot use: one line on stderr naming the problem, exit 1, the file unchanged.
@Suite struct DatabaseErrorsTests {
    static let commands: [[String]] = [
        ["lists"], ["pages", "GET /posts"], ["items", "GET /posts"], ["get", "Post", "1"], ["stats"],
        ["invalidate", "--all"], ["evict", "--unreferenced"], ["vacuum"], ["export", "GET /posts"], ["doctor"],
        // The file is checked before any request: the port is never asked.
        ["sync", "http://127.0.0.1:9/posts"],
    ]

    @Test(arguments: commands)
    func aFileOfRandomBytesIsNotADatabase(command: [String]) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        var generator = SystemRandomNumberGenerator()
        try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
            to: URL(fileURLWithPath: path))
        let before = try contents(of: path)
        let outcome = try await BuiltBinary.slippers.run(command + ["--db", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderrLines == ["slippers: \(path) is not an SQLite database; it was left untouched"])
        #expect(try contents(of: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["cache.sqlite"])
    }

    @Test(arguments: commands)
    func aFileFromANewerSlippersIsRefused(command: [String]) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        try SeededCache.write(at: path)
        try SeededCache.addUnknownMigration(at: path)
        let before = try contents(of: path)
        let outcome = try await BuiltBinary.slippers.run(command + ["--db", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderrLines == [
                "slippers: The cache \(path) was written by a newer Slippers (unknown migrations: 9999_from_the_future); "
                    + "upgrade Slippers to open it"
            ])
        #expect(try contents(of: path) == before)
    }

    @Test func aDamagedDatabaseIsReportedAndLeftAlone() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        try SeededCache.write(at: path)
        // Keep SQLite's header, overwrite the pages that hold the schema and the data.
        var bytes = try contents(of: path)
        for index in 100..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        for command in Self.commands {
            let outcome = try await BuiltBinary.slippers.run(command + ["--db", path])
            #expect(outcome.status == 1, "\(command)")
            #expect(outcome.stderrLines.count == 1, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("slippers: "), "\(command)")
            #expect(outcome.stderr.contains(path), "\(command): \(outcome.stderr)")
        }
        #expect(try contents(of: path) == bytes)
    }

    /// The commands that only look at a file.
    static let inspections: [[String]] = [
        ["lists"], ["pages", "GET /posts"], ["items", "GET /posts"], ["get", "Post", "1"], ["stats"],
        ["export", "GET /posts"], ["doctor"],
    ]

    /// The commands that change a file.
    static let writes: [[String]] = [
        ["invalidate", "--all"], ["evict", "--unreferenced"], ["vacuum"], ["sync", "http://127.0.0.1:9/posts"],
    ]

    @Test func aDatabaseOfAnotherApplicationIsRefusedUntouched() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        try SeededCache.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)", at: path)
        let before = try contents(of: path)
        for command in Self.commands {
            let outcome = try await BuiltBinary.slippers.run(command + ["--db", path])
            #expect(outcome.status == 1)
            #expect(
                outcome.stderrLines == [
                    "slippers: \(path) is an SQLite database of another application (tables: users); it was left untouched"
                ], "\(command)")
        }
        #expect(try contents(of: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["cache.sqlite"])
    }

    @Test func aDeviceOrADirectoryIsRefusedAndNothingIsCreatedBesideIt() async throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for command in Self.commands {
            let outcome = try await BuiltBinary.slippers.run(command + ["--db", "/dev/null"])
            #expect(outcome.status == 1)
            #expect(
                outcome.stderrLines == [
                    "slippers: /dev/null is a device, not a cache file; nothing was opened or created"
                ])
            #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
            #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
            let onFolder = try await BuiltBinary.slippers.run(command + ["--db", folder])
            #expect(onFolder.status == 1)
            #expect(
                onFolder.stderrLines == [
                    "slippers: \(folder) is a directory, not a cache file; nothing was opened or created"
                ])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["folder"])
    }

    @Test(.enabled(if: ScratchMount.isAvailable, "needs root and tmpfs mounts"))
    func onAReadOnlyFileSystemInspectionWorksAndWritesSayWhy() async throws {
        let mount = try ScratchMount()
        let path = mount.directory + "/cache.sqlite"
        try SeededCache.write(at: path)
        try mount.makeReadOnly()
        let before = try contents(of: path)
        for command in Self.inspections {
            let outcome = try await BuiltBinary.slippers.run(command + ["--db", path])
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty, "\(command)")
        }
        for command in Self.writes {
            let outcome = try await BuiltBinary.slippers.run(command + ["--db", path])
            #expect(outcome.status == 1, "\(command)")
            #expect(
                outcome.stderrLines == [
                    "slippers: Cannot write the cache \(path): its filesystem is mounted read-only "
                        + "(inspection commands still read it)"
                ], "\(command)")
        }
        let elsewhere = try await BuiltBinary.slippers.run([
            "sync", "http://127.0.0.1:9/posts", "--db", mount.directory + "/new.sqlite",
        ])
        #expect(elsewhere.stderrLines.first?.contains("its filesystem is mounted read-only") == true)
        #expect(try contents(of: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.directory) == ["cache.sqlite"])
    }

    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func inADirectoryTheUserCannotWriteInspectionWorksAndWritesSayWhy() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        try SeededCache.write(at: path)
        // Another user, who may read the file but not write it or its directory.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let asNobody = BuiltBinary(url: URL(fileURLWithPath: "/usr/bin/setpriv"))
        let prefix = ["--reuid=65534", "--regid=65534", "--clear-groups", BuiltBinary.slippers.url.path]
        let before = try contents(of: path)
        for command in Self.inspections {
            let outcome = try await asNobody.run(prefix + command + ["--db", path])
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
        }
        for command in Self.writes {
            let outcome = try await asNobody.run(prefix + command + ["--db", path])
            #expect(outcome.status == 1, "\(command)")
            #expect(
                outcome.stderrLines == [
                    "slippers: Cannot write the cache \(path): permission denied on the file or its directory, "
                        + "where the -wal and -shm files go"
                ], "\(command)")
        }
        let missing = directory.path("missing/cache.sqlite")
        let outcome = try await BuiltBinary.slippers.run(["sync", "http://127.0.0.1:9/posts", "--db", missing])
        #expect(outcome.stderrLines == ["slippers: Cannot create the cache \(missing): its directory does not exist"])
        #expect(try contents(of: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["cache.sqlite"])
    }
}
