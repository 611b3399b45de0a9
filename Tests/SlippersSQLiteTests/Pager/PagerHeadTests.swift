import Foundation
import Slippers
import SlippersStorage
import SlippersTestSupport
import Testing

@testable import SlippersSQLite

private typealias Post = ScriptedSource.Post
private typealias PostPager = Pager<Post>

/// `refresh()` of a complete list whose new items come first: read from its head.
@Suite struct PagerHeadTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let key = "GET /posts"

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    /// A pager over a complete cached list of 1…100, 10 a page, recorded newest first, showing three pages.
    private func pagerShowingThreePages(_ source: ScriptedSource) async throws -> PostPager {
        try await ListSync(
            storage: store, source: source, list: ListDescriptor(key: key, itemType: "Post")
        ).run()
        try store.setNewestFirst(true, for: key)
        let pager = PostPager(
            cache: store, source: source, list: ListDescriptor(key: key, of: Post.self),
            configuration: PagerConfiguration(policy: .cacheThenNetwork, initialWindow: 3))
        await pager.start()
        #expect(await pager.state.pages.count == 3)
        return pager
    }

    @Test func aNewItemAppearsAtTheTopInTwoRequestsWithTheWindowKept() async throws {
        let source = ScriptedSource(ids: Array(1...100), pageSize: 10)
        let pager = try await pagerShowingThreePages(source)
        source.setIDs([101] + Array(1...100), label: "v1")
        let before = source.requests.count
        try await pager.refresh()
        #expect(source.requests.count - before == 2)
        let state = await pager.state
        let ids = state.items.map { $0.id.intValue ?? -1 }
        #expect(ids == [101] + Array(1...30))
        #expect(state.pages.count == 3)
        #expect(state.refresh.error == nil)
    }

    @Test func aRemovedItemRefreshesEveryPage() async throws {
        let source = ScriptedSource(ids: Array(1...100), pageSize: 10)
        let pager = try await pagerShowingThreePages(source)
        source.setIDs([101] + Array(2...100), label: "v1")
        try await pager.refresh()
        for _ in 0..<12 { await pager.loadNextPageIfNeeded() }
        let ids = await pager.state.items.map { $0.id.intValue ?? -1 }
        #expect(ids == [101] + Array(2...100))
    }
}
