import Foundation
import SlippersTestSupport
import Testing

/// Every command on a file it cannot use: one line on stderr naming the problem, exit 1, the file unchanged.
@Suite struct DatabaseErrorsTests {
    static let commands: [[String]] = [
        ["collections"], ["pages", "GET /posts"], ["items", "GET /posts"], ["get", "Post", "1"], ["stats"],
        ["invalidate", "--all"], ["evict", "--unreferenced"], ["vacuum"], ["export", "GET /posts"], ["doctor"],
        // The file is checked before any request: the port is never asked.
        ["sync", "http://127.0.0.1:9/posts"],
    ]

    @Test(arguments: commands)
    func aFileOfRandomBytesIsNotADatabase(command: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        var generator = SystemRandomNumberGenerator()
        try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
            to: URL(fileURLWithPath: path))
        let before = try contents(of: path)
        let outcome = try BuiltBinary.slippers.run(command + ["--db", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderrLines == ["slippers: \(path) is not an SQLite database; it was left untouched"])
        #expect(try contents(of: path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["cache.sqlite"])
    }

    @Test(arguments: commands)
    func aFileFromANewerSlippersIsRefused(command: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        try SeededCache.write(at: path)
        try SeededCache.addUnknownMigration(at: path)
        let before = try contents(of: path)
        let outcome = try BuiltBinary.slippers.run(command + ["--db", path])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderrLines == [
                "slippers: The cache \(path) was written by a newer Slippers (unknown migrations: 9999_from_the_future); "
                    + "upgrade Slippers to open it"
            ])
        #expect(try contents(of: path) == before)
    }

    @Test func aDamagedDatabaseIsReportedAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        try SeededCache.write(at: path)
        // Keep SQLite's header, overwrite the pages that hold the schema and the data.
        var bytes = try contents(of: path)
        for index in 100..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        for command in Self.commands {
            let outcome = try BuiltBinary.slippers.run(command + ["--db", path])
            #expect(outcome.status == 1, "\(command)")
            #expect(outcome.stderrLines.count == 1, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("slippers: "), "\(command)")
            #expect(outcome.stderr.contains(path), "\(command): \(outcome.stderr)")
        }
        #expect(try contents(of: path) == bytes)
    }
}
