import Foundation
import LocalAPI
import Slippers
import SlippersFleet
import SlippersKit
import SlippersPostgres
import SlippersTestSupport
import Testing

/// A server app's fleet, without the command line: workers of its own that take queued requests
/// and sync each list with the library's Syncer, through the lease and fetch-ahead protocol,
/// from the fixture API, with the credentials of the list's origin.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct FleetWorkerSyncerTests {
    @Test func twoWorkersOfAServerAppSyncEveryQueuedListExactlyWithNoSyncOfTheirOwn() async throws {
        let fixture = FixtureServer(configuration: .init(itemCount: 230, pageSize: 25, itemsKeyPath: "results"))
        try await fixture.start()
        defer { Task { await fixture.stop() } }
        fixture.setRequiredBearerToken("secret")
        let origin = try #require(Origin(fixture.baseURL))
        try await PostgresServer.with { server in
            let location = try PostgresLocation(server.url(database: try await server.makeDatabase()))
            let queue = try await PostgresCache.open(location)
            defer { Task { try? await queue.close() } }
            let urls = (1...4).map { fixture.url(.page, query: ["list": String($0)]).absoluteString }
            _ = try await queue.enqueue(
                urls.map { url in
                    var request = SyncRequest(url: url)
                    request.style.name = "pageNumber"
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
                        try await configured.run(headers: [origin: ["Authorization": "Bearer secret"]])
                        try await cache.close()
                    }
                }
                try await group.waitForAll()
            }
            let lists = try await queue.queuedLists()
            #expect(lists.map(\.state) == [.done, .done, .done, .done], "\(lists.map(\.lastError))")
            for list in lists {
                #expect(list.lastResult?.hasSuffix("end reached, 230 items cached") == true, "\(list)")
                let key = try #require(list.listKey)
                #expect(try await queue.list(key)?.itemCount == 230)
                #expect(try await queue.list(key)?.endReached == true)
            }
        }
    }
}
