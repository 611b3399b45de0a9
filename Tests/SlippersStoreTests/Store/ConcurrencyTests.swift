import Foundation
import Slippers
import SlippersStore
import SlippersTestSupport
import Synchronization
import Testing

/// WAL mode: readers read while a writer writes, never see SQLITE_BUSY, never see half a page.
@Suite struct ConcurrencyTests {
    /// Checks that every cached page is whole: page k lists exactly the ids of page k.
    static func checkWholePages(_ store: CacheStore, key: String, size: Int) throws {
        guard let list = try store.cachedList(key) else { return }
        for info in list.pages {
            let page = try #require(try store.page(at: info.index, in: key))
            #expect(page.items.count == size)
            #expect(page.info.itemCount == size)
            let first = try #require(Fixtures.ids(page.items).first)
            #expect(Fixtures.ids(page.items) == Array(first..<first + size))
        }
    }

    @Test func aSecondConnectionReadsWhileThisProcessWrites() async throws {
        let directory = try TemporaryDirectory()
        let writer = try CacheStore(path: directory.path())
        let reader = try CacheStore(path: directory.path())
        let key = Fixtures.posts.key
        let size = 40
        let done = Atomic(false)
        async let writing: Void = blocking {
            defer { done.store(true, ordering: .sequentiallyConsistent) }
            for index in 0..<150 {
                let ids = Array(index * size + 1...index * size + size)
                try writer.savePage(Fixtures.page(ids, next: PageToken(index + 1)), at: index, in: Fixtures.posts)
            }
        }
        let reads = try await blocking {
            var reads = 0
            while !done.load(ordering: .sequentiallyConsistent) {
                try Self.checkWholePages(reader, key: key, size: size)
                reads += 1
            }
            return reads
        }
        try await writing
        #expect(reads > 0)
        #expect(try reader.collection(key)?.pageCount == 150)
    }

    @Test func thisProcessReadsWhileAnotherProcessWrites() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let (seenPages, wasRunning) = try await blocking {
            let child = try StoreWriterProcess.start(path: path, collection: "live", pages: 200, size: 25)
            defer { StoreWriterProcess.kill(child) }
            let reader = try CacheStore(path: path)
            var seenPages = 0
            // Reads until the child has committed a few pages, however late a loaded machine starts it.
            for _ in 0..<5_000 where seenPages < 5 {
                try Self.checkWholePages(reader, key: "live", size: 25)
                seenPages = max(seenPages, try reader.collection("live")?.pageCount ?? 0)
                if seenPages == 0 { usleep(1_000) }
            }
            return (seenPages, child.isRunning)
        }
        #expect(wasRunning)
        #expect(seenPages > 0)
    }
}
