import Foundation
import LocalAPI
import Slippers
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// Lists whose page and size are members of a rison or JSON object in one query parameter,
/// planned and synced by the library with no override: detected from the URL, advanced inside
/// the object, every other member sent back as it was.
@Suite(.timeLimit(.minutes(2))) struct EncodedParameterListTests {
    static let rison = "(\(FixtureServer.risonFilter),order_column:id,page:0,page_size:25)"
    static let json = #"{\#(FixtureServer.jsonOrder),"page":1,"per_page":20}"#

    private func synced(_ fixture: Fixture, _ url: URL) async throws -> (SyncPlan, [Int]) {
        let plan = try await SyncPlan.make(storage: fixture.store, client: fixture.client, url: url)
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run()
        var ids: [Int] = []
        try fixture.store.forEachItem(in: plan.list.key) { item in
            if case .integer(let id) = item.key { ids.append(id) }
        }
        return (plan, ids)
    }

    @Test func aRisonPageFromZeroIsDetectedAndSyncedToTheServersCount() async throws {
        let fixture = try await Fixture(itemCount: 123, pageSize: 10)
        let (plan, ids) = try await synced(fixture, fixture.server.url(.rison, query: ["q": Self.rison]))
        #expect(plan.style.kind == .pageNumber(parameter: "q.page", firstPage: 0))
        #expect(plan.style.pageSizeParameter == "q.page_size")
        #expect(ids == Array(1...123))
        let stored = try #require(try fixture.store.list(plan.list.key))
        #expect(stored.endReached)
        #expect(stored.total == 123)
        let sent = fixture.server.requests.compactMap { $0.query["q"] }
        // Pages are asked for several at once; the short last page may cost one request more.
        #expect(sent.count <= 6)
        #expect(
            Set(sent).isSuperset(
                of: (0..<5).map { "(\(FixtureServer.risonFilter),order_column:id,page:\($0),page_size:25)" }))
        await fixture.server.stop()
    }

    @Test func aJSONPageIsDetectedAndSyncedToTheServersTotal() async throws {
        let fixture = try await Fixture(itemCount: 123, pageSize: 10)
        let (plan, ids) = try await synced(fixture, fixture.server.url(.jsonQuery, query: ["q": Self.json]))
        #expect(plan.style.kind == .pageNumber(parameter: "q.page", firstPage: 1))
        #expect(ids == Array(1...123))
        #expect(try fixture.store.list(plan.list.key)?.total == 123)
        let sent = fixture.server.requests.compactMap { $0.query["q"] }
        #expect(sent.count <= 8)
        #expect(sent.contains(#"{\#(FixtureServer.jsonOrder),"page":7,"per_page":20}"#))
        await fixture.server.stop()
    }

    @Test func aPageParameterNamedByHandGoesInsideTheObject() async throws {
        let fixture = try await Fixture(itemCount: 45, pageSize: 10)
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client,
            url: fixture.server.url(.rison, query: ["q": "(order_column:id,page:0)"]),
            overrides: StyleOverrides(pageSize: 20, pageParameter: "q.page", pageSizeParameter: "q.page_size"))
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run()
        #expect(try fixture.store.list(plan.list.key)?.itemCount == 45)
        // The first request is the URL as given; the pages are then asked for at the size given, several at once.
        let sent = fixture.server.requests.compactMap { $0.query["q"] }
        #expect(
            Set(sent.suffix(3)) == [
                "(order_column:id,page:0,page_size:20)", "(order_column:id,page:1,page_size:20)",
                "(order_column:id,page:2,page_size:20)",
            ])
        await fixture.server.stop()
    }
}
