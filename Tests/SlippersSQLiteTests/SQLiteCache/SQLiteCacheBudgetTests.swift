import Foundation
import GRDB
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// A budget kept by the cache itself, in a real file: least recently read first, open lists and
/// pending writes never evicted.
@Suite struct SQLiteCacheBudgetTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    static let keys = ["GET /a", "GET /b", "GET /c"]
    static let day: TimeInterval = 86_400

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
        // Written a day apart, a first: 100 items each.
        for (offset, key) in Self.keys.enumerated() {
            let ids = Array(offset * 100 + 1...offset * 100 + 100)
            try store.savePage(
                Fixtures.page(ids, next: nil), at: 0, in: ListDescriptor(key: key, itemType: "Post"),
                now: Date(timeIntervalSince1970: 1_000_000 + Double(offset) * Self.day))
        }
    }

    private var keys: [String] { (try? store.lists().map(\.key).sorted()) ?? [] }
    private func bytes(lists: Int) -> Int64 { Int64(lists * 100 * 26) }

    @Test func theLeastRecentlyReadGoFirstUntilTheItemsFit() throws {
        // "GET /a" was written first, but read last.
        try store.markOpen("GET /a", now: Date(timeIntervalSince1970: 1_000_000 + 3 * Self.day))
        try store.markClosed("GET /a")
        let report = try store.setBudget(CacheBudget(maxBytes: bytes(lists: 2)))
        #expect(report.lists == 1)
        #expect(keys == ["GET /a", "GET /c"])
        #expect(try store.budget() == CacheBudget(maxBytes: bytes(lists: 2)))
    }

    @Test func listsUnreadForLongerThanTheAgeGo() throws {
        try store.setBudget(
            CacheBudget(maxAge: 1.5 * Self.day), now: Date(timeIntervalSince1970: 1_000_000 + 2.6 * Self.day))
        #expect(keys == ["GET /c"])
    }

    @Test func aListOpenInALiveProcessAndAnItemWithAPendingWriteStay() throws {
        try store.markOpen("GET /a")
        try store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"label": "mine"}"#.utf8), url: "https://x.test/150"),
            type: "Post", key: .integer(150))
        try store.setBudget(CacheBudget(maxBytes: 0))
        #expect(keys == ["GET /a"])
        #expect(try store.item(type: "Post", key: .integer(150)) != nil)
        #expect(try store.item(type: "Post", key: .integer(250)) == nil)
    }

    @Test func aListOpenedTwiceInThisProcessStaysUntilBothClose() throws {
        try store.markOpen("GET /a")
        try store.markOpen("GET /a")
        try store.markClosed("GET /a")
        try store.setBudget(CacheBudget(maxBytes: 0))
        #expect(keys == ["GET /a"])
        try store.markClosed("GET /a")
        try store.keepBudget()
        #expect(keys.isEmpty)
    }

    @Test func aListOpenedByAProcessThatIsGoneIsNotKept() throws {
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        // Another process's open list, left behind when it died.
        let other = try SQLiteCache(path: directory.path())
        try other.markOpen("GET /b")
        try DatabaseQueue(path: directory.path()).write { db in
            try db.execute(
                sql: "UPDATE open_lists SET pid = ? WHERE collection_key = 'GET /b'",
                arguments: [Int64(gone.processIdentifier)])
        }
        try store.setBudget(CacheBudget(maxBytes: 0))
        #expect(keys.isEmpty)
    }

    @Test func aSyncKeepsTheBudgetWhenItEndsAndNeverEvictsItsOwnList() async throws {
        try store.setBudget(CacheBudget(maxBytes: bytes(lists: 1)))
        #expect(keys == ["GET /c"])
        let source = (1000..<1200).map { Fixtures.item($0) }.pageSource(pageSize: 100)
        let sync = ListSync(
            storage: store, source: source, list: ListDescriptor(key: "GET /d", itemType: "Post"))
        try await sync.run()
        #expect(keys == ["GET /d"])
        #expect(try store.list("GET /d")?.itemCount == 200)
    }

    @Test func noBudgetEvictsNothing() throws {
        #expect(try store.keepBudget() == EvictionReport())
        try store.setBudget(CacheBudget(maxBytes: 1))
        try store.setBudget(nil)
        #expect(try store.budget() == nil)
    }
}
