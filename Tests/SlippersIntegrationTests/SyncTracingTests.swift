import Foundation
import InMemoryTracing
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing
import Tracing

/// The spans of a sync over HTTP, kept by an in-memory tracer given to the sync and its client (no
/// global bootstrap), against the fixture API on 127.0.0.1 and a cache file.
@Suite struct SyncTracingTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let tracer = InMemoryTracer()
    static let token = "tr4ce-s3cret-token"

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    private func sync(of server: FixtureServer) throws -> ListSync<HTTPPageSource> {
        var options = APIClient.Options(retryPolicy: .none, tracer: tracer)
        options.authenticator = BearerTokenAuthenticator(token: Self.token) { Self.token }
        let client = APIClient(
            configuration: try #require(ServerConfiguration(baseURL: server.baseURL)), options: options)
        let source = HTTPPageSource(
            client: client, url: server.url(.page, query: ["api_key": Self.token]),
            style: .pageNumber(pageSize: 20, itemsKeyPath: "results", totalKeyPath: "total"))
        let list = ListDescriptor(
            key: source.listKey, itemType: "FixtureItem", style: try source.style.storedText())
        var sync = ListSync(storage: store, source: source, list: list)
        sync.tracer = tracer
        return sync
    }

    private func spans(named name: String) -> [FinishedInMemorySpan] {
        tracer.finishedSpans.filter { $0.operationName == name }
    }

    private func attribute(_ name: String, of span: FinishedInMemorySpan) -> SpanAttribute? {
        span.attributes[name]?.toSpanAttribute()
    }

    /// The index a page span names; -1 for none.
    private func index(of span: FinishedInMemorySpan) -> Int64 {
        guard case .int64(let index) = attribute("slippers.page", of: span) else { return -1 }
        return index
    }

    /// Every attribute value of every span, and every recorded error and status message, as text.
    private func everythingRecorded() -> [String] {
        tracer.finishedSpans.flatMap { span in
            var texts: [String] = []
            // swift-format-ignore: ReplaceForEachWithForLoop
            // Span attributes are no sequence: `forEach` is their only walk.
            span.attributes.forEach { key, value in texts.append("\(key)=\(value)") }
            texts += span.errors.map { "\($0.error)" }
            texts += span.status.flatMap(\.message).map { [$0] } ?? []
            return texts
        }
    }

    @Test func aRunHasOneListSpanAndAPageSpanPerPageWithItsRequestsUnderIt() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 45, pageSize: 20))
        try await server.start()
        defer { Task { await server.stop() } }
        let progress = try await sync(of: server).run()
        #expect(progress.endReached)
        let origin = "http://127.0.0.1:\(try #require(server.baseURL.port))"

        let lists = spans(named: "slippers.list")
        try #require(lists.count == 1)
        let list = lists[0]
        #expect(list.parentSpanID == nil)
        #expect(attribute("slippers.operation", of: list) == .string("run"))
        #expect(attribute("slippers.origin", of: list) == .string(origin))
        #expect(attribute("slippers.style", of: list) == .string("pageNumber"))
        #expect(attribute("slippers.pages", of: list) == .int64(3))
        #expect(attribute("slippers.items", of: list) == .int64(45))

        let pages = spans(named: "slippers.page").sorted { index(of: $0) < index(of: $1) }
        #expect(pages.map { attribute("slippers.page", of: $0) } == [.int64(0), .int64(1), .int64(2)])
        #expect(pages.map { attribute("slippers.items", of: $0) } == [.int64(20), .int64(20), .int64(5)])
        for page in pages {
            #expect(page.parentSpanID == list.spanID)
            #expect(page.traceID == list.traceID)
            #expect(attribute("slippers.status", of: page) == .string("fetched"))
            #expect(attribute("slippers.origin", of: page) == .string(origin))
            #expect(attribute("slippers.style", of: page) == .string("pageNumber"))
            guard case .int64(let bytes) = attribute("slippers.bytes", of: page) else {
                Issue.record("page \(page.spanID) has no byte count")
                continue
            }
            #expect(bytes > 0)
        }

        let requests = spans(named: "HTTP GET")
        #expect(requests.count == 3)
        #expect(Set(requests.compactMap(\.parentSpanID)) == Set(pages.map(\.spanID)))
        for request in requests {
            #expect(request.kind == .client)
            #expect(attribute("http.request.method", of: request) == .string("GET"))
            #expect(attribute("http.response.status_code", of: request) == .int64(200))
            #expect(attribute("slippers.origin", of: request) == .string(origin))
            guard case .int64(let bytes) = attribute("slippers.bytes", of: request) else {
                Issue.record("request \(request.spanID) has no byte count")
                continue
            }
            #expect(bytes > 0)
        }
        // The tracer's context reached the server, for a server that continues the trace.
        #expect(server.requests.allSatisfy { $0.headers.keys.contains { $0.lowercased().hasPrefix("in-memory") } })

        // No path, query, header value or credential in any attribute.
        let recorded = everythingRecorded()
        #expect(!recorded.isEmpty)
        for text in recorded {
            #expect(!text.contains(Self.token))
            #expect(!text.contains("/page"))
            #expect(!text.contains("Bearer"))
            #expect(!text.contains("?"))
        }
    }

    @Test func aFailingPageLeavesAnErrorSpanThatPrintsNoCredential() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 45, pageSize: 20))
        try await server.start()
        defer { Task { await server.stop() } }
        let sync = try sync(of: server)
        try await sync.run(maxPages: 1)
        tracer.clearAll()
        server.inject(.status(500))
        await #expect(throws: (any Error).self) { try await sync.run() }

        let list = try #require(spans(named: "slippers.list").first)
        #expect(list.status?.code == .error)
        #expect(!list.errors.isEmpty)
        let page = try #require(spans(named: "slippers.page").first)
        #expect(attribute("slippers.page", of: page) == .int64(1))
        #expect(page.parentSpanID == list.spanID)
        #expect(page.status?.code == .error)
        #expect(!page.errors.isEmpty)
        let request = try #require(spans(named: "HTTP GET").first)
        #expect(request.parentSpanID == page.spanID)
        #expect(attribute("http.response.status_code", of: request) == .int64(500))
        #expect(request.status?.code == .error)
        for text in everythingRecorded() {
            #expect(!text.contains(Self.token))
        }
    }

    @Test func aRevalidationAndAHeadRefreshAreListSpansOfTheirOwn() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 45, pageSize: 20))
        try await server.start()
        defer { Task { await server.stop() } }
        let sync = try sync(of: server)
        try await sync.run()
        tracer.clearAll()
        try await sync.revalidate()
        try await sync.refreshHead(maxPages: 1)
        let operations = spans(named: "slippers.list").compactMap { attribute("slippers.operation", of: $0) }
        #expect(operations == [.string("revalidate"), .string("refresh_head")])
        let lists = Set(spans(named: "slippers.list").map(\.spanID))
        #expect(spans(named: "slippers.page").count == 4)
        #expect(spans(named: "slippers.page").allSatisfy { $0.parentSpanID.map(lists.contains) == true })
    }
}
