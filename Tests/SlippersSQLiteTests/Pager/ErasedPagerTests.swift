import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

private typealias Post = ScriptedSource.Post

/// The pager's clean surface: a source of any type, a list described by value, snapshots that compare.
@Suite struct ErasedPagerTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let posts = ListDescriptor(key: "GET /posts", of: Post.self)

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    @Test func aPagerOfAnySourceHasOneType() async throws {
        let scripted = ScriptedSource(ids: Array(1...7), pageSize: 5)
        var pagers: [Pager<Post>] = []
        pagers.append(Pager(cache: store, source: scripted, list: posts))
        pagers.append(
            Pager(
                cache: store, source: AnyPageSource(scripted),
                list: ListDescriptor(key: "other", of: Post.self)))
        for pager in pagers {
            await pager.start()
            await pager.loadNextPageIfNeeded()
            #expect(await pager.state.items.map { $0.id.intValue ?? -1 } == Array(1...7))
        }
        #expect(pagers[0].list == posts)
    }

    @Test func snapshotsCompareByValue() async throws {
        let pager = Pager<Post>(
            cache: store, source: ScriptedSource(ids: Array(1...3), pageSize: 5), list: posts,
            configuration: PagerConfiguration(clock: { Date(timeIntervalSince1970: 1_000_000) }))
        await pager.start()
        let first = await pager.state
        #expect(first == first)
        #expect(first != Pager<Post>.State())
        var edited = first
        edited.refresh = .failed(ScriptedSource.Failure())
        #expect(edited != first)
        #expect(LoadState.failed(ScriptedSource.Failure()) == .failed(ScriptedSource.Failure()))
        #expect(LoadState.loading != .idle)
    }

    @Test func anInMemoryCacheWorksAsAFileDoesAndIsGoneWithTheStore() async throws {
        let memory = try SQLiteCache.inMemory()
        let pager = Pager<Post>(
            cache: memory, source: ScriptedSource(ids: Array(1...8), pageSize: 5), list: posts)
        await pager.start()
        await pager.loadNextPageIfNeeded()
        #expect(await pager.state.items.count == 8)
        #expect(try memory.list(posts.key)?.itemCount == 8)
        #expect(try SQLiteCache.inMemory().lists().isEmpty)
    }

    @Test func originsPrintAsTheirNames() {
        #expect("\([PageProvenance.network, .fresh, .cache])" == "[network, fresh, cache]")
        #expect("\(Pager<Post>.Provenance.network)" == "network")
    }

    @Test func anAccountIsFiledApartFromTheDescribedList() {
        let pager = Pager<Post>(
            cache: store, source: ScriptedSource(ids: [], pageSize: 5), list: posts,
            configuration: PagerConfiguration(account: Account("user 7")))
        #expect(pager.list.key == "GET /posts [account: user 7]")
        #expect(pager.list.itemType == "Post [account: user 7]")
    }
}
