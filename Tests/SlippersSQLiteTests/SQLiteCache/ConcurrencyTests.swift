import Foundation
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Synchronization
import Testing

/// WAL mode: readers read while a writer writes, never see SQLITE_BUSY, never see half a page.
@Suite struct ConcurrencyTests {
    /// Checks that every cached page is whole: page k lists exactly the ids of page k.
    static func checkWholePages(_ store: SQLiteCache, key: String, size: Int) throws {
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
        let writer = try SQLiteCache(path: directory.path())
        let reader = try SQLiteCache(path: directory.path())
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
        #expect(try reader.list(key)?.pageCount == 150)
    }

    @Test func thisProcessReadsWhileAnotherProcessWrites() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let (seenPages, wasRunning) = try await blocking {
            let child = try StoreWriterProcess.start(path: path, list: "live", pages: 200, size: 25)
            defer { StoreWriterProcess.kill(child) }
            let reader = try SQLiteCache(path: path)
            var seenPages = 0
            // Reads until the child has committed a few pages, however late a loaded machine starts it.
            for _ in 0..<5_000 where seenPages < 5 {
                try Self.checkWholePages(reader, key: "live", size: 25)
                seenPages = max(seenPages, try reader.list("live")?.pageCount ?? 0)
                if seenPages == 0 { usleep(1_000) }
            }
            return (seenPages, child.isRunning)
        }
        #expect(wasRunning)
        #expect(seenPages > 0)
    }

    @Test func sixProcessesCreatingOneNewFileAtOnceAllOpenItAndWrite() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let outcomes = try await blocking {
            // Started together: they race to create and migrate the file, then write side by side.
            let children = try (0..<6).map { index in
                let process = Process()
                process.executableURL = StoreWriterProcess.url
                process.arguments = [path, "writer-\(index)", "40", "20"]
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                try process.launchedOneAtATime()
                return (process, output, errors)
            }
            var outcomes: [(ready: Bool, error: String)] = []
            for (_, output, _) in children {
                outcomes.append((output.fileHandleForReading.readData(ofLength: 6) == Data("ready\n".utf8), ""))
            }
            // Each writes a page at least, whatever the others hold.
            let deadline = Date().addingTimeInterval(30)
            let reader = try SQLiteCache(path: path, mode: .readOnly)
            while try reader.lists().count < 6, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            try reader.close()
            for (index, (process, _, errors)) in children.enumerated() {
                let running = process.isRunning
                StoreWriterProcess.kill(process)
                if !running {
                    outcomes[index].error = String(
                        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                }
            }
            return outcomes
        }
        let ready = outcomes.map { $0.ready }
        let errors = outcomes.map { $0.error }
        #expect(ready == Array(repeating: true, count: 6))
        #expect(errors == Array(repeating: "", count: 6))
        let store = try SQLiteCache(path: path)
        #expect(try store.diagnose().isHealthy)
        #expect(try store.lists().count == 6)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(".") } == [])
    }
}
