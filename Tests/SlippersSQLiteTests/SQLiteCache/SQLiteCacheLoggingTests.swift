import Foundation
import InMemoryLogging
import Logging
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// An item the tape decoder leaves to `JSONDecoder`: it has a `Float`.
private struct Reading: Codable, Identifiable, CacheIdentifiable, Sendable {
    let id: ID<Reading>
    var value: Float
}

@Suite struct SQLiteCacheLoggingTests {
    let directory: TemporaryDirectory
    let handler = InMemoryLogHandler()
    let store: SQLiteCache

    init() throws {
        directory = try TemporaryDirectory()
        var logger = Logger(label: "test", factory: { [handler] _ in handler })
        logger.logLevel = .trace
        store = try SQLiteCache(path: directory.path(), logger: logger)
    }

    func entries(_ message: Logger.Message) -> [InMemoryLogHandler.Entry] {
        handler.entries.filter { $0.message == message }
    }

    @Test func anEvictionIsLoggedAtInfoWithWhatItRemoved() throws {
        try store.savePage(Fixtures.page([1, 2], next: nil), at: 0, in: Fixtures.posts)
        try store.evict(list: Fixtures.posts.key)
        let eviction = try #require(entries("evicted").first)
        #expect(eviction.level == .info)
        #expect(eviction.metadata["lists"] == "1")
        #expect(eviction.metadata["pages"] == "1")
        #expect(eviction.metadata["items"] == "2")
    }

    @Test func eachRevalidationOutcomeIsLoggedAtDebug() throws {
        try store.savePage(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts)
        try store.savePageIfChanged(Fixtures.page([1, 2], next: "2"), at: 0, in: Fixtures.posts)
        try store.savePageIfChanged(Fixtures.page([1, 2], next: "2", label: "v2"), at: 0, in: Fixtures.posts)
        try store.savePageIfChanged(Fixtures.page([3], token: "2", next: nil), at: 1, in: Fixtures.posts)
        try store.markPageNotModified(at: 1, in: Fixtures.posts.key)
        let outcomes = entries("page revalidated").map {
            "\($0.metadata["page"] ?? "")=\($0.metadata["outcome"] ?? "")"
        }
        #expect(outcomes == ["0=unchanged", "0=changed", "1=new", "1=not modified"])
        #expect(entries("page revalidated").allSatisfy { $0.level == .debug })
    }

    @Test func aDecodeThatFallsBackToJSONDecoderIsLoggedAtDebug() throws {
        let readings = Repository<Reading>(cache: store)
        try readings.save(Page(items: [Reading(id: 1, value: 0.5)]), at: 0, in: "readings")
        #expect(try readings.page(at: 0, in: "readings")?.first?.value == 0.5)
        #expect(try readings.item(1)?.value == 0.5)
        let fallbacks = entries("decoding falls back to JSONDecoder")
        #expect(fallbacks.count == 2)
        #expect(fallbacks.allSatisfy { $0.level == .debug })
    }

    @Test func aDecodeTheTapeTakesLogsNothing() throws {
        let labelled = Repository<Fixtures.Labelled>(cache: store)
        try store.savePage(
            Fixtures.page([1, 2], next: nil), at: 0, in: ListDescriptor(key: "l", itemType: "Labelled"))
        #expect(try labelled.page(at: 0, in: "l")?.count == 2)
        #expect(entries("decoding falls back to JSONDecoder").isEmpty)
    }

    @Test func aPageFetchedAgainUnderTheRetryBudgetIsLoggedAtInfo() async throws {
        let source = ListSyncWalkTests.WalkSource { number in
            (ids: [number + 1], next: number < 2 ? number + 1 : nil)
        }
        source.fail(page: 1, with: [.init(isTransient: true)])
        let budget = RetryBudget(duration: .seconds(3600), baseDelay: .milliseconds(1), maxDelay: .milliseconds(2))
        let sync = ListSync(storage: store, source: source, list: Fixtures.posts)
        _ = try await sync.run(limits: .init(), retryBudget: budget)
        let retry = try #require(entries("retrying page").first)
        #expect(retry.level == .info)
        #expect(retry.metadata["page"] == "1")
        #expect(retry.metadata["error"] == "flaky")
    }
}
