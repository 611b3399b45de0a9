import Foundation
import SlippersTestSupport
import Testing

@Suite struct StatsCommandTests {
    static let keys = [
        "accounts", "file_size", "item_bytes", "items", "lists", "newest_page", "oldest_page", "pages", "path",
        "schema_version", "unreferenced_items",
    ]

    @Test func reportsTheFiguresOfTheFile() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["stats", "--db", directory.path()])
        #expect(outcome.status == 0)
        let lines = outcome.stdoutLines
        #expect(
            lines.map { $0.split(separator: " ").first ?? "" } == [
                "file", "size", "lists", "pages", "items", "item", "oldest", "newest", "schema", "accounts",
            ])
        #expect(lines[2] == "lists        2")
        #expect(lines[3] == "pages        4")
        #expect(lines[4] == "items        153 (0 unreferenced)")
        #expect(lines[8] == "schema       0013_reading_positions")
        #expect(lines[9] == "accounts     anonymous")
    }

    @Test func jsonHasEveryKey() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["stats", "--json", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(writtenKeys(ofFirstObjectIn: outcome.stdout) == Self.keys)
        let stats = try #require(try parsedJSON(outcome.stdout) as? [String: Any])
        #expect(stats["items"] as? Int == 153)
        #expect(stats["schema_version"] as? String == "0013_reading_positions")
        #expect((stats["file_size"] as? Int ?? 0) > 0)
        #expect(stats["oldest_page"] is String)
    }

    @Test func aBinaryCopiedAloneCreatesAndMigratesANewFile() async throws {
        let directory = try TemporaryDirectory()
        let copy = directory.url.appendingPathComponent("slippers")
        try FileManager.default.copyItem(at: BuiltBinary.slippers.url, to: copy)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["slippers"])
        let outcome = try await BuiltBinary(url: copy).run(
            ["stats", "--json", "--db", "new.sqlite"], in: directory.url)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
        let stats = try #require(try parsedJSON(outcome.stdout) as? [String: Any])
        #expect(stats["schema_version"] as? String == "0013_reading_positions")
        #expect(stats["lists"] as? Int == 0)
        #expect(fileExists(directory.path("new.sqlite")))
        let permissions = try FileManager.default.attributesOfItem(atPath: directory.path("new.sqlite"))[
            .posixPermissions]
        #expect((permissions as? NSNumber)?.intValue == 0o600)
    }

    @Test func aReadOnlyFileIsInspectedWithoutChange() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: directory.path())
        let before = try contents(of: directory.path())
        for command in ["stats", "lists", "doctor"] {
            let outcome = try await BuiltBinary.slippers.run([command, "--db", directory.path()])
            #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
        }
        #expect(try contents(of: directory.path()) == before)
    }

    @Test func aMissingDirectoryIsReported() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("absent/cache.sqlite")
        let outcome = try await BuiltBinary.slippers.run(["stats", "--db", path])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == ["slippers: Cannot create the cache \(path): its directory does not exist"])
    }
}
