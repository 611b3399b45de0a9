import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// Cursors that say where they point (Relay's `arrayconnection:N`) are made ahead of the pages
/// that announce them, so a sync asks for several pages at once, and keeps each only when the
/// page before it announces the very cursor that was made.
@Suite(.timeLimit(.minutes(2))) struct PredictedCursorsTests {
    private func ids(in key: String, of store: SQLiteCache) throws -> [Int] {
        var ids: [Int] = []
        try store.forEachItem(in: key) { item in
            if case .integer(let id) = item.key { ids.append(id) }
        }
        return ids
    }

    @Test func aRelayConnectionIsReadAheadWhileAPageIsHeldAndStaysExact() async throws {
        let fixture = try await Fixture(itemCount: 200, pageSize: 10)
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(.graphql),
            overrides: StyleOverrides(
                style: .graphQL(query: PostedListTests.posts, connectionPath: "posts", pageSize: 10)))
        fixture.server.resetRequests()
        // The second page's answer waits: a walk page after page would send nothing more.
        fixture.server.hold(fromRequest: 2)
        var sync = ListSync(storage: fixture.store, source: plan.source, list: plan.list)
        sync.concurrency = AdaptiveConcurrency(maximum: 4)
        let walk = Task { [sync] in try await sync.run() }
        for _ in 0..<3_000 where fixture.server.requestCount < 4 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(fixture.server.requestCount >= 4)
        fixture.server.release()
        let progress = try await walk.value
        #expect(progress.endReached)
        #expect(try ids(in: plan.list.key, of: fixture.store) == Array(1...200))
        // Every page once: no page made wrongly, none asked past the end.
        #expect(fixture.server.requestCount == 20)
        await fixture.server.stop()
    }

    @Test func cursorsThatLookLikeOffsetsButDoNotMoveByThePageSizeAreFollowedOneByOne() async throws {
        let server = FixtureServer()
        try await server.start()
        // Page 0 ends at offset 9 and says so; later pages hold 7 items: the made cursors are refuted.
        server.script("/list") { request in
            let start =
                request.query["after"].flatMap { Data(base64Encoded: $0) }
                .flatMap { String(data: $0, encoding: .utf8) }.flatMap { Int($0.dropFirst("arrayconnection:".count)) }
                .map { $0 + 1 } ?? 0
            let size = start == 0 ? 10 : 7
            let end = min(100, start + size)
            let items = (start..<end).map { #"{"id": \#($0 + 1)}"# }.joined(separator: ",")
            let next = end < 100 ? "\"" + Data("arrayconnection:\(end - 1)".utf8).base64EncodedString() + "\"" : "null"
            return .json(#"{"total": 100, "data": [\#(items)], "next": \#(next)}"#)
        }
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        guard let configuration = ServerConfiguration(baseURL: server.url(path: "/list")) else {
            Issue.record("no host")
            return
        }
        var style = PaginationStyle.cursor(parameter: "after", keyPath: "next", itemsKeyPath: "data")
        style.totalKeyPath = "total"
        let plan = try await SyncPlan.make(
            storage: store, client: APIClient(configuration: configuration), url: server.url(path: "/list"),
            overrides: StyleOverrides(style: style))
        var sync = ListSync(storage: store, source: plan.source, list: plan.list)
        sync.concurrency = AdaptiveConcurrency(maximum: 4)
        let progress = try await sync.run()
        #expect(progress.endReached)
        let got = try ids(in: plan.list.key, of: store)
        #expect(got == Array(1...100), "\(got.count) items")
        await server.stop()
    }
}
