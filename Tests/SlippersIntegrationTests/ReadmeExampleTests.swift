import Foundation
import LocalAPI
import SlippersKit
import SlippersTestSupport
import Testing

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// The README's examples, line for line, against the fixture API instead of api.example.com.
@Suite(.timeLimit(.minutes(2))) struct ReadmeExampleTests {
    struct Post: Codable, Identifiable, CacheIdentifiable, Sendable {
        let id: ID<Post>
        let title: String
        let createdAt: Date
    }

    #if canImport(SwiftUI)
        /// The README's SwiftUI view, compiled where SwiftUI is.
        struct PostsView: View {
            @State var posts: PagedList<Post>

            var body: some View {
                List {
                    ForEach(posts.rows) { row in
                        switch row {
                        case .item(let post): Text(post.title).onAppear { posts.rowAppeared(row) }
                        case .gap(let gap):
                            Text(gap.itemCount.map { "\($0) newer posts" } ?? "more posts")
                                .onAppear { posts.rowAppeared(row) }
                        }
                    }
                    if let error = posts.appendError { Text("\(error)") }
                }
                .overlay { if let error = posts.refreshError, posts.items.isEmpty { Text("\(error)") } }
                .task { await posts.load() }
                .refreshable { await posts.refresh() }
            }
        }
    #endif

    /// What the view does with its model, without SwiftUI: `.task`, each row's `.onAppear`, `.refreshable`.
    @MainActor
    private static func showAsTheViewDoes(_ posts: PagedList<Post>, rows: Int) async {
        await posts.load()  // .task
        var shown = 0
        while shown < rows, !posts.endReached {
            // Rows appear as the list scrolls; the last ones ask for the next page.
            for post in posts.items.dropFirst(shown) { posts.rowAppeared(post) }
            shown = posts.items.count
            await posts.loadNextPage()  // waits for the load the rows started
        }
        await posts.refresh()  // .refreshable
    }

    @Test @MainActor func theSwiftUIExampleWorks() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 120, pageSize: 50))
        try await server.start()
        let directory = try TemporaryDirectory()
        let url = "\(server.baseURL.absoluteString)/page"

        let cache = try SQLiteCache(path: directory.path("cache.sqlite"))
        let posts = PagedList<Post>(url: url, cache: cache)
        await Self.showAsTheViewDoes(posts, rows: 100)

        #expect(posts.items.count >= 100)
        #expect(posts.refreshError == nil)
        #expect(posts.pageProvenances.first == .network)
        #expect(posts.items.first?.title.isEmpty == false)
        await server.stop()
    }

    @Test func theAsyncSequenceExampleWorks() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 120, pageSize: 50))
        try await server.start()
        let directory = try TemporaryDirectory()
        let url = try #require(URL(string: "\(server.baseURL.absoluteString)/page"))

        let cache = try SQLiteCache(path: directory.path("cache.sqlite"))
        let pager = try await Pager<Post>.detecting(url: url, cache: cache)
        let recorder = Recorder(await pager.states())
        await pager.start()  // cached pages at once, then the network
        await pager.loadNextPageIfNeeded()  // page 2, resumable across runs

        await recorder.wait { $0.items.count == 100 }
        let state = await pager.state
        #expect(state.provenance == .network)
        #expect(state.pageProvenances == [.network, .network])
        await server.stop()
    }

    @Test @MainActor func theStubbedPreviewExampleWorks() async throws {
        let preview = PagedList<Post>(
            url: "https://api.example.com/posts", style: .pageNumber(pageSize: 50, itemsKeyPath: "results"),
            cache: try .inMemory(),
            configuration: HTTPListConfiguration(
                client: APIClient(configuration: ServerConfiguration(host: "api.example.com").stubbing()),
                stub: .pages([#"{"results": [{"id": 1, "title": "Hello", "created_at": "2026-01-02T03:04:05Z"}]}"#])))
        await preview.load()
        #expect(preview.items.map(\.title) == ["Hello"])
    }
}
