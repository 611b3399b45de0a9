import Foundation
import LocalAPI
import Slippers
import SlippersKit
import SlippersPostgres
import SlippersTestSupport
import Testing

/// A server app's fleet, without the command line: workers of its own that take queued requests
/// and sync each list through the lease and fetch-ahead protocol, from the fixture API.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct ServerSideFleetTests {
    @Test func twoWorkersOfAServerAppSyncEveryQueuedListExactly() async throws {
        let fixture = FixtureServer(configuration: .init(itemCount: 230, pageSize: 25, itemsKeyPath: "results"))
        try await fixture.start()
        defer { Task { await fixture.stop() } }
        try await PostgresServer.with { server in
            let location = try PostgresLocation(server.url(database: try await server.makeDatabase()))
            let queue = try await PostgresCache.open(location)
            defer { Task { try? await queue.close() } }
            let urls = (1...4).map { fixture.url(.page, query: ["list": String($0)]).absoluteString }
            _ = try await queue.enqueue(
                urls.map { url in
                    var request = SyncRequest(url: url)
                    request.style.name = "page"
                    request.style.pageSize = 10
                    return request
                })

            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in ["app-1", "app-2"] {
                    let cache = try await PostgresCache.open(location)
                    var worker = FleetWorker(cache: cache, name: name)
                    worker.concurrency = 2
                    worker.untilEmpty = true
                    worker.poll = .milliseconds(50)
                    let configured = worker
                    group.addTask {
                        try await configured.run(Self.sync)
                        try await cache.close()
                    }
                }
                try await group.waitForAll()
            }
            let lists = try await queue.queuedLists()
            #expect(lists.map(\.state) == [.done, .done, .done, .done], "\(lists.map(\.lastError))")
            for list in lists {
                #expect(list.lastResult == "synced 230 items", "\(list)")
                let key = try #require(list.collectionKey)
                #expect(try await queue.collection(key)?.itemCount == 230)
                #expect(try await queue.collection(key)?.endReached == true)
            }
        }
    }

    /// The app's sync of one queued list: the README's server-side example.
    @Sendable static func sync(_ job: FleetWorker.Job) async throws -> String {
        guard let url = URL(string: job.request.url), let server = ServerConfiguration(baseURL: url) else {
            throw URLError(.badURL)
        }
        let client = APIClient(configuration: server)
        let plan = try await SyncPlan.make(
            storage: job.cache, client: client, url: url,
            overrides: StyleOverrides(job.request.style),
            itemType: job.request.itemType, refresh: job.request.refresh)
        await job.recordCollection(plan.collection.key)
        let list = SharedList(collection: plan.collection.key, fingerprint: plan.collection.style ?? "")
        let synced = try await job.cache.syncingSharedList(
            list, source: plan.source,
            plannedStyle: plan.resumesStoredStyle ? plan.stored?.style : plan.collection.style,
            refresh: job.request.refresh, concurrency: 4
        ) { shared in
            var sync = CollectionSync(storage: job.cache, source: shared, collection: plan.collection)
            sync.concurrency = AdaptiveConcurrency(maximum: 4)
            return try await sync.run(
                limits: .init(maxPages: job.request.limits.maxPages), refresh: job.request.refresh)
        }
        return "synced \(synced.result.itemsFetched) items"
    }
}
