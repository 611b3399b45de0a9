import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct ExportCommandTests {
    @Test func jsonIsOneArrayOfTheStoredBytesInListOrder() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["export", "GET /posts", "--db", directory.path()])
        #expect(outcome.status == 0)
        let expected =
            "[\n"
            + (1...150).map { String(decoding: SeededCache.postJSON($0), as: UTF8.self) }
            .joined(separator: ",\n") + "\n]\n"
        #expect(outcome.stdout == expected)
        #expect((try parsedJSON(outcome.stdout) as? [Any])?.count == 150)
    }

    @Test func ndjsonIsOneItemPerLine() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run([
            "export", "GET /users", "--format", "ndjson", "--db", directory.path(),
        ])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout
                == ["u1", "u2", "u3"].map { String(decoding: SeededCache.userJSON($0), as: UTF8.self) + "\n" }.joined())
    }

    @Test func csvIsAHeaderRowThenOneRowPerItem() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run([
            "export", "GET /users", "--format", "csv", "--db", directory.path(),
        ])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "id,name\r\nu1,User u1\r\nu2,User u2\r\nu3,User u3\r\n")
    }

    @Test func theURLGivenToSyncFindsItsListThoughItsKeyLeavesOutThePageSize() async throws {
        try await RunningFixture.with(itemCount: 60, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.page, query: ["per_page": "20", "tag": "a"])
            let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(sync.status == 0, "\(sync.stderr)")
            // Filed without the page size, which the style sets.
            #expect(!sync.stdout.contains("per_page"), "\(sync.stdout)")
            for command in [["export", "--format", "ndjson"], ["items"], ["pages"]] {
                let outcome = try await BuiltBinary.slippers.run(
                    [command[0], url] + command.dropFirst() + ["--db", directory.path()])
                #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
            }
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...60))
            // Another filter is another list, never this one.
            let other = try await BuiltBinary.slippers.run([
                "export", fixture.url(.page, query: ["per_page": "20", "tag": "b"]), "--db", directory.path(),
            ])
            #expect(other.status == 1)
            #expect(other.stderr.contains("No list"))
        }
    }

    @Test func anEmptyListExportsAnEmptyArray() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(Page(items: []), at: 0, in: ListDescriptor(key: "empty", itemType: "Thing"))
        try store.close()
        #expect(try await BuiltBinary.slippers.run(["export", "empty", "--db", directory.path()]).stdout == "[]\n")
        #expect(
            try await BuiltBinary.slippers.run(["export", "empty", "--format", "ndjson", "--db", directory.path()])
                .stdout
                .isEmpty)
    }

    @Test func anUnknownFormatIsAUsageErrorAndAnUnknownListAFailure() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let format = try await BuiltBinary.slippers.run([
            "export", "GET /posts", "--format", "xml", "--db", directory.path(),
        ])
        #expect(format.status == 64)
        #expect(format.stderr.contains("xml"))
        let unknown = try await BuiltBinary.slippers.run(["export", "nope", "--db", directory.path()])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderrLines == [#"slippers: No list "nope" in the cache"#])
    }

    /// 40 000 items of 2 KiB (80 MiB of JSON) go out with the memory of a command that reads nothing.
    @Test func memoryStaysBoundedHoweverLongTheList() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        let list = ListDescriptor(key: "big", itemType: "Blob")
        let padding = String(repeating: "x", count: 2_000)
        let pages = 80
        let pageSize = 500
        for page in 0..<pages {
            let items = (0..<pageSize).map { offset in
                let id = page * pageSize + offset + 1
                return RawItem(key: .integer(id), json: Data(#"{"id":\#(id),"padding":"\#(padding)"}"#.utf8))
            }
            try store.savePage(
                Page(
                    items: items, token: page == 0 ? nil : PageToken(page),
                    nextToken: page == pages - 1 ? nil : PageToken(page + 1)),
                at: page, in: list)
        }
        try store.close()

        let baseline = try BuiltBinary.slippers.runMeasuringMemory(
            ["stats", "--db", directory.path()], stdoutPath: directory.path("stats.out"))
        let export = try BuiltBinary.slippers.runMeasuringMemory(
            ["export", "big", "--format", "ndjson", "--db", directory.path()], stdoutPath: directory.path("export.out"))
        #expect(baseline.status == 0)
        #expect(export.status == 0)
        let exported = try contents(of: directory.path("export.out"))
        #expect(exported.count > 80_000_000)
        #expect(exported.split(separator: UInt8(ascii: "\n")).count == pages * pageSize)
        // The list is 80 MB; the export may use a few MB more than `stats` (SQLite's page cache, the output chunk).
        #expect(export.peakResidentBytes < baseline.peakResidentBytes + 16 * 1024 * 1024)
    }
}
