import Foundation
import Slippers
import SlippersFixtures
import SlippersNetworking
import SlippersStore
import SlippersTestSupport
import Testing

/// The README's example, line for line, against the fixture API instead of api.example.com.
@Suite struct ReadmeExampleTests {
    struct Post: Codable, Identifiable, CacheIdentifiable, Sendable {
        let id: ID<Post>
        let title: String
        let createdAt: Date
    }

    @Test func theReadmeExampleWorks() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 120, pageSize: 50))
        try await server.start()
        let directory = try TemporaryDirectory()
        let base = server.baseURL.absoluteString

        let client = HTTPClient(configuration: try #require(ServerConfiguration(baseURL: server.baseURL)))
        let source = HTTPPageSource(
            client: client, url: try #require(URL(string: "\(base)/page")),
            style: .pageNumber(pageSize: 50, itemsKeyPath: "results"))
        let store = try CacheStore(path: directory.path("cache.sqlite"))
        let pager = CachedPager<Post, HTTPPageSource>(store: store, source: source, collection: source.collectionKey)
        let recorder = Recorder(await pager.states())
        await pager.start()  // cached pages at once, then the network
        await pager.loadNextPageIfNeeded()  // page 2, resumable across runs

        await recorder.wait { $0.items.count == 100 }
        let state = await pager.state
        #expect(state.origin == .network)
        #expect(state.items.first?.title.isEmpty == false)
        await server.stop()
    }
}
