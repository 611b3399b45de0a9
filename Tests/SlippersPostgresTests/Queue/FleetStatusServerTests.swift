import Foundation
import Slippers
import SlippersPostgres
import SlippersTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The worker's status server and the queue's depth: `/health` follows the worker's loops, and
/// the depth counts lists by state with the lag of the oldest due one; a real PostgreSQL.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct FleetStatusServerTests {
    @Test func healthIsServiceUnavailableUntilTheWorkerRunsThenOKAndMetricsAreWhatTheClosureRenders() async throws {
        try await PostgresServer.with { server in
            let location = try PostgresLocation(server.url(database: try await server.makeDatabase()))
            let cache = try await PostgresCache.open(location)
            var worker = FleetWorker(cache: cache, name: "w")
            worker.poll = .milliseconds(20)
            let port = Locked<Int?>(nil)
            var status = FleetStatusServer(host: "127.0.0.1", port: 0, health: worker.health) { "slippers_up 1\n" }
            status.onListening = { bound in port.withLock { $0 = bound } }
            let serving = Task { [status] in try await status.run() }
            defer { serving.cancel() }
            while port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
            let base = "http://127.0.0.1:\(try #require(port.withLock { $0 }))"
            #expect(try await Self.get(base + "/health").status == 503)
            #expect(try await Self.get(base + "/metrics") == (200, "slippers_up 1\n"))
            #expect(try await Self.get(base + "/metrics?name=x").status == 200)
            #expect(try await Self.get(base + "/other").status == 404)
            let configured = worker
            let running = Task { try await configured.run { _ in "" } }
            var healthy = 0
            for _ in 0..<500 where healthy == 0 {
                if try await Self.get(base + "/health").status == 200 { healthy = 200 }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(healthy == 200)
            running.cancel()
            try await running.value
            #expect(try await Self.get(base + "/health").status == 503)
            try? await cache.close()
        }
    }

    @Test func theQueueDepthCountsListsByStateAndTheLagOfTheOldestDueList() async throws {
        try await PostgresServer.with { server in
            let location = try PostgresLocation(server.url(database: try await server.makeDatabase()))
            let cache = try await PostgresCache.open(location)
            let enqueued = Date(timeIntervalSince1970: 1_000_000)
            let ids = try await cache.enqueue(
                (1...3).map { SyncRequest(url: "https://api.example.com/list/\($0)") }, now: enqueued)
            _ = try await cache.claim(worker: "w", lease: .seconds(30), now: enqueued)
            let depth = try await cache.queueDepth(now: enqueued.addingTimeInterval(90))
            #expect(depth.lists == [.pending: 2, .running: 1])
            #expect(depth.lag == 90)
            try await cache.finish(ids[0], worker: "w", result: "ok", error: nil, now: enqueued)
            let later = try await cache.queueDepth(now: enqueued.addingTimeInterval(120))
            #expect(later.lists == [.pending: 2, .done: 1])
            #expect(later.lag == 120)
            try? await cache.close()
        }
    }

    /// A `GET` of `url` with URLSession: its status and body.
    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
