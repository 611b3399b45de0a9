import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// Syncs of several pages at once over HTTP, against the fixture API on 127.0.0.1.
@Suite struct ConcurrentSyncHTTPTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    private func client(for server: FixtureServer, retryPolicy: RetryPolicy = .none) throws -> APIClient {
        APIClient(
            configuration: try #require(ServerConfiguration(baseURL: server.baseURL)),
            options: APIClient.Options(retryPolicy: retryPolicy))
    }

    @discardableResult
    private func run(
        _ source: HTTPPageSource, concurrency: AdaptiveConcurrency
    ) async throws -> SyncProgress {
        var sync = ListSync(
            storage: store, source: source,
            list: ListDescriptor(key: source.listKey, itemType: "FixtureItem"))
        sync.concurrency = concurrency
        return try await sync.run(limits: .init())
    }

    private func storedIDs(_ source: HTTPPageSource) throws -> [Int] {
        try #require(try store.cachedList(source.listKey)).items.map { item in
            guard case .integer(let id) = item.key else { return -1 }
            return id
        }
    }

    @Test func pageNumbersArePagedConcurrentlyAndNoPagePastTheEndIsAskedFor() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 487, pageSize: 20))
        try await server.start()
        defer { Task { await server.stop() } }
        let source = HTTPPageSource(
            client: try client(for: server), url: server.url(.page),
            style: .pageNumber(pageSize: 20, itemsKeyPath: "results", totalKeyPath: "total"))
        let concurrency = AdaptiveConcurrency(maximum: 6)
        let progress = try await run(source, concurrency: concurrency)
        #expect(progress.endReached)
        #expect(try storedIDs(source) == Array(1...487))
        let pages = server.requests.map { Int($0.query["page"] ?? "") ?? -1 }
        #expect(pages.sorted() == Array(1...25))
        #expect(concurrency.snapshot.maxInFlight > 1)
        #expect(concurrency.snapshot.maxInFlight <= 6)
    }

    @Test func offsetsWithAPageSizeArePagedConcurrentlyAndNoOffsetPastTheTotalIsAskedFor() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 300, pageSize: 25))
        try await server.start()
        defer { Task { await server.stop() } }
        let source = HTTPPageSource(
            client: try client(for: server), url: server.url(.offset), style: .offset(limit: 25))
        let concurrency = AdaptiveConcurrency(maximum: 4)
        let progress = try await run(source, concurrency: concurrency)
        #expect(progress.endReached)
        #expect(try storedIDs(source) == Array(1...300))
        let offsets = server.requests.map { Int($0.query["offset"] ?? "") ?? -1 }
        // Each page after the first is asked for from the item before it; the second alone, until the
        // server answered it as asked, then several at once.
        #expect(Array(offsets.prefix(2)) == [0, 24])
        #expect(offsets.sorted() == [0] + Array(stride(from: 24, to: 299, by: 25)))
        #expect(concurrency.snapshot.maxInFlight > 1)
    }

    @Test func offsetsWithNeitherTotalNorLinkAreAskedForAtMostOnePagePastTheEnd() async throws {
        let server = FixtureServer(configuration: .init())
        try await server.start()
        defer { Task { await server.stop() } }
        // A bare array and nothing else: no total, no page count, no next link says where the list ends.
        server.script("/bare-offsets") { request in
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            let limit = Int(request.query["limit"] ?? "10") ?? 10
            let ids = (max(0, offset)..<min(offset + limit, 100)).map { #"{"id":\#($0 + 1)}"# }
            return .json("[" + ids.joined(separator: ",") + "]")
        }
        let source = HTTPPageSource(
            client: try client(for: server), url: server.url(path: "/bare-offsets"),
            style: .offset(limit: 10, itemsKeyPath: "", totalKeyPath: nil))
        let progress = try await run(source, concurrency: AdaptiveConcurrency(maximum: 6))
        #expect(progress.endReached)
        #expect(try storedIDs(source) == Array(1...100))
        // Ten full pages, then the empty one that ends the list; none asked for beyond it.
        #expect(server.requests.count == 11)
        let offsets = server.requests.map { Int($0.query["offset"] ?? "") ?? -1 }
        #expect(offsets.count == Set(offsets).count)
    }

    @Test func cursorsArePagedOneAfterAnother() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 95, pageSize: 10))
        try await server.start()
        defer { Task { await server.stop() } }
        let source = HTTPPageSource(
            client: try client(for: server), url: server.url(.cursor),
            style: .cursor(pageSize: 10, itemsKeyPath: "results"))
        let concurrency = AdaptiveConcurrency(maximum: 6)
        try await run(source, concurrency: concurrency)
        #expect(try storedIDs(source) == Array(1...95))
        #expect(server.requests.count == 10)
        #expect(concurrency.snapshot.maxInFlight == 1)
    }

    @Test func aTooManyRequestsAnswerHalvesTheConcurrencyAndHoldsNewRequests() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 400, pageSize: 10))
        try await server.start()
        defer { Task { await server.stop() } }
        let concurrency = AdaptiveConcurrency(maximum: 8)
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5))
        let client = try client(for: server, retryPolicy: policy).reportingThrottles(to: concurrency)
        let source = HTTPPageSource(
            client: client, url: server.url(.page),
            style: .pageNumber(pageSize: 10, itemsKeyPath: "results", totalKeyPath: "total"))
        // The first page comes through; the next three requests are refused with Retry-After: 1.
        var sync = ListSync(
            storage: store, source: source,
            list: ListDescriptor(key: source.listKey, itemType: "FixtureItem"))
        sync.concurrency = concurrency
        try await sync.run(limits: .init(maxPages: 1))
        server.inject(.tooManyRequests(retryAfter: 1), count: 3)
        try await sync.run(limits: .init())

        let state = concurrency.snapshot
        #expect(state.throttles == 3)
        #expect(state.decreases >= 1)
        #expect(state.maxInFlight <= 8)
        #expect(try storedIDs(source) == Array(1...400))
        // Every page once, and the three refused ones once more.
        let pages = server.requests.map { Int($0.query["page"] ?? "") ?? -1 }
        #expect(Set(pages) == Set(1...40))
        #expect(pages.count == 43)
    }
}
