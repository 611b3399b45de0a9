import Foundation
import Slippers
import SlippersNetworking
import SlippersSQLite
import Testing

@testable import SlippersBench

/// Our side of each figure must do the work it claims before its timings mean anything.
@Suite struct SubjectTests {
    private let workload = Workload(itemCount: 1_000)

    @Test func theWorkloadStoreServesEveryPageAsTheWorkloadHasIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let subject = try WorkloadStore(path: directory.url.appendingPathComponent("c.sqlite").path, workload: workload)
        for page in [1, 7, 20] {
            #expect(
                try subject.repository.page(at: page - 1, in: WorkloadStore.listKey) == workload.items(page: page)
            )
            let lazy = try #require(try subject.repository.lazyPage(at: page - 1, in: WorkloadStore.listKey))
            #expect(try lazy.items(0..<10) == Array(workload.items(page: page).prefix(10)))
        }
        let info = try #require(try subject.store.list(WorkloadStore.listKey))
        #expect(info.pageCount == workload.pageCount)
        #expect(info.endReached)
    }

    @Test func theScannerHandsTheStoreEachItemAsTheBaselinesEncodeIt() throws {
        // Persisting a fetched page stores the same bytes the baselines store, so reads compare like with like.
        let items = try JSONScanner(workload.serverResponse(page: 3)).rawItems(at: ["results"])
        let expected = workload.items(page: 3)
        #expect(items.map(\.key) == expected.map(\.itemKey))
        #expect(try items.map(\.json) == expected.map { try JsonProvider.encode($0) })
    }

    @Test func aGeneratedListHoldsTheGeneratorsItems() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteCache(path: directory.url.appendingPathComponent("c.sqlite").path)
        let repository = Repository<BenchItem>(cache: store)
        try GeneratedList.fill(
            repository, key: "k", pageCount: 4, pageSize: 5, progress: Progress(isEnabled: false))
        #expect(try repository.page(at: 3, in: "k") == (15..<20).map(ItemGenerator.item))
        #expect(try store.list("k")?.endReached == true)
    }

    @Test func theColdStartFixtureIsAFileTheStoreReadsAsItsOwn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("cold.sqlite").path
        try ColdStartFixture.build(path: path, itemCount: 1_000, pageSize: 50, progress: Progress(isEnabled: false))
        let store = try SQLiteCache(path: path)
        let info = try #require(try store.list(ColdStartFixture.listKey))
        #expect(info.pageCount == 20)
        #expect(info.itemCount == 1_000)
        #expect(info.supersededPageCount == 0)
        #expect(info.endReached)
        let repository = Repository<BenchItem>(cache: store)
        #expect(try repository.page(at: 0, in: ColdStartFixture.listKey) == (0..<50).map(ItemGenerator.item))
        #expect(
            try repository.page(at: 19, in: ColdStartFixture.listKey) == (950..<1_000).map(ItemGenerator.item))
        #expect(try store.diagnose().isHealthy)
        // The cache goes on from the fixture as from a file it wrote itself.
        try repository.save(
            Page(items: (50..<100).map(ItemGenerator.item), token: "2", nextToken: "3"), at: 1,
            in: ColdStartFixture.listKey)
    }

    @Test func theWriteCounterCountsItemWritesAndPageUpdates() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("c.sqlite").path
        let store = try SQLiteCache(path: path)
        let repository = Repository<BenchItem>(cache: store)
        try GeneratedList.fill(
            repository, key: "k", pageCount: 2, pageSize: 5, progress: Progress(isEnabled: false))
        let counter = try WriteCounter(path: path)
        #expect(try counter.counts() == (0, 0))
        try store.markPageNotModified(at: 1, in: "k", validators: PageValidators(etag: "e"))
        #expect(try counter.counts() == (0, 1))
        var item = ItemGenerator.item(3)
        item.score = -1
        try repository.save(item)
        // Saving a page whose items are unchanged writes the page row, not the items.
        try repository.save(Page(items: (5..<10).map(ItemGenerator.item), token: "2"), at: 1, in: "k")
        #expect(try counter.counts().itemWrites == 1)
    }
}
