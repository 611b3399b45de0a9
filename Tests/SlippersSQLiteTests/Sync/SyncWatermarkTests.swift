import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// Watermark values compared and lowered as dates, numbers or text, and stored per list.
@Suite struct SyncWatermarkTests {
    @Test func datesAreComparedAsDatesWhateverTheirOffsetOrFraction() {
        #expect(
            SyncWatermark.greater("2026-01-02T00:00:00Z", "2026-01-01T23:59:59.999+00:00") == "2026-01-02T00:00:00Z")
        // 01:00 at +02:00 is 23:00 the day before in UTC.
        #expect(SyncWatermark.greater("2026-01-01T01:00:00+02:00", "2025-12-31T23:30:00Z") == "2025-12-31T23:30:00Z")
    }

    @Test func numbersAreComparedAsNumbersAndTextAsText() {
        #expect(SyncWatermark.greater("9", "10") == "10")
        #expect(SyncWatermark.greater("1.5", "1.25") == "1.5")
        #expect(SyncWatermark.greater("b", "ab") == "b")
    }

    @Test func aLookbackLowersADateOrANumberAndLeavesTextAsItIs() {
        #expect(SyncWatermark.lowering("2026-01-01T00:05:00Z", by: .seconds(300)) == "2026-01-01T00:00:00Z")
        #expect(
            SyncWatermark.lowering("2026-01-01T02:00:00.250+02:00", by: .seconds(60)) == "2025-12-31T23:59:00.250Z")
        #expect(SyncWatermark.lowering("1700000300", by: .seconds(300)) == "1700000000")
        #expect(SyncWatermark.lowering("v7", by: .seconds(300)) == "v7")
        #expect(SyncWatermark.lowering("2026-01-01T00:05:00Z", by: .zero) == "2026-01-01T00:05:00Z")
    }

    @Test func aFileKeepsOneWatermarkPerList() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        #expect(try store.watermark(of: "a") == nil)
        try store.saveWatermark(SyncWatermark(field: "updated_at", pendingSince: "x"), of: "a")
        try store.saveWatermark(SyncWatermark(field: "updated_at", value: "y"), of: "a")
        try store.saveWatermark(SyncWatermark(field: "version", value: "3"), of: "b")
        #expect(try store.watermark(of: "a") == SyncWatermark(field: "updated_at", value: "y"))
        #expect(try store.watermark(of: "b")?.value == "3")
        try store.saveWatermark(nil, of: "a")
        #expect(try store.watermark(of: "a") == nil)
    }

    @Test func anEvictedListForgetsItsWatermark() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        let list = ListDescriptor(key: "GET /posts", itemType: "Post")
        let item = RawItem(key: .integer(1), json: Data(#"{"id":1,"updated_at":"2026-01-01T00:00:00Z"}"#.utf8))
        try store.savePage(Page(items: [item]), at: 0, in: list)
        try store.saveWatermark(SyncWatermark(field: "updated_at", value: "2026-01-01T00:00:00Z"), of: list.key)
        try store.saveWatermark(SyncWatermark(field: "updated_at", value: "x"), of: "GET /other")
        _ = try store.evict(list: list.key)
        #expect(try store.watermark(of: list.key) == nil)
        #expect(try store.watermark(of: "GET /other")?.value == "x")
    }
}
