import Foundation
import LocalAPI
import SlippersSQLite
import SlippersTestSupport
import Testing

/// The file alone is the cache once `slippers` exits: its write-ahead log was checkpointed, so a
/// copy of the file without its `-wal` (a backup, a file sent elsewhere, a read-only mount) holds
/// every item.
@Suite struct FileWholeAtExitTests {
    /// The number of items in a copy of `path` made without its `-wal` and `-shm` files.
    private func itemsInACopyOfTheFileAlone(_ path: String) throws -> Int {
        let alone = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: path, toPath: alone.path())
        let copy = try SQLiteCache(path: alone.path(), mode: .readOnly)
        defer { try? copy.close() }
        return try copy.stats().items
    }

    @Test func aCopyOfTheFileAloneAfterASyncHoldsEveryItem() async throws {
        try await RunningFixture.with(itemCount: 5_000, pageSize: 100) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run(["sync", fixture.url(.next), "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(try itemsInACopyOfTheFileAlone(directory.path()) == 5_000)
        }
    }

    @Test func aCopyOfTheFileAloneAfterTheDemoHoldsEveryItem() async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run(["demo", "--db", directory.path()])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try itemsInACopyOfTheFileAlone(directory.path()) == 1_003)
    }
}
