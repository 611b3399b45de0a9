import Foundation
import LocalAPI
import Slippers
import SlippersKit
import SlippersPostgres
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// A cached list revalidated page by page on a real PostgreSQL server the test starts, from the
/// fixture API: each scenario runs on a file and on a database and must end the same on both.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct RevalidationConformanceTests {
    @Test(arguments: [FixtureServer.Validators.etag, .none])
    func anUnchangedListIsConfirmedWithoutARewriteOrANewGeneration(validators: FixtureServer.Validators)
        async throws
    {
        try await onBothBackends(itemCount: 30, validators: validators) { storage, server, sync in
            let key = sync.list.key
            let type = sync.list.itemType
            let before = try #require(try await storage.item(type: type, key: .integer(server.allIDs[15])))
            try await storage.invalidate(key)
            server.resetRequests()

            let found = Found(try await sync.revalidate())
            #expect(found == Self.found(unchanged: 3))
            // With validators, each page is asked for with them and answered 304; without, by digest.
            #expect(server.requests.count == 3)
            #expect(server.requests.allSatisfy { $0.isConditional } == (validators != .none))
            let after = try #require(try await storage.item(type: type, key: .integer(server.allIDs[15])))
            #expect(after.updatedAt == before.updatedAt)
            let info = try #require(try await storage.list(key))
            #expect(info.generation == 1)
            #expect(info.invalidatedAt == nil)
            #expect(try await storage.pages(in: key).allSatisfy { !$0.isUnverified && !$0.isSuperseded })
            return found
        }
    }

    @Test(arguments: [FixtureServer.Validators.etag, .none])
    func anEditedPageIsRewrittenAndTheUnchangedOnesAfterAChangedFirstPageJoinItsGeneration(
        validators: FixtureServer.Validators
    ) async throws {
        try await onBothBackends(itemCount: 30, validators: validators) { storage, server, sync in
            let type = sync.list.itemType
            let second = server.allIDs[15]
            server.update(id: second, title: "edited on the second page")
            var found = Found(try await sync.revalidate())
            #expect(found == Self.found(unchanged: 2, changed: 1, itemsWritten: 10))
            #expect(try await storage.list(sync.list.key)?.generation == 1)
            let edited = try await storage.item(type: type, key: .integer(second))?.item.json ?? Data()
            #expect(String(decoding: edited, as: UTF8.self).contains("edited on the second page"))

            // A changed first page starts a new generation; the pages confirmed after it join it.
            server.update(id: server.allIDs[0], title: "edited on the first page")
            found = Found(try await sync.revalidate())
            #expect(found == Self.found(unchanged: 2, changed: 1, itemsWritten: 10))
            let info = try #require(try await storage.list(sync.list.key))
            #expect(info.generation == 2)
            #expect(info.supersededPageCount == 0)
            #expect(info.endReached)
            return found
        }
    }

    @Test func aListThatShrankLosesThePagesPastItsEndAndOneThatGrewGetsNewPages() async throws {
        try await onBothBackends(itemCount: 30, validators: .etag) { storage, server, sync in
            for id in server.allIDs.suffix(11) { server.remove(id: id) }
            let shrunk = Found(try await sync.revalidate())
            #expect(shrunk == Self.found(unchanged: 1, changed: 1, removed: 1, itemsWritten: 9))
            #expect(try await storage.list(sync.list.key)?.pageCount == 2)

            server.insertAtTop(count: 15)
            let grown = Found(try await sync.revalidate())
            #expect(grown == Self.found(changed: 2, new: 2, itemsWritten: 34))
            let info = try #require(try await storage.list(sync.list.key))
            #expect(info.pageCount == 4)
            #expect(info.itemCount == 34)
            #expect(info.endReached)
            return grown
        }
    }

    @Test func aPageMergedInPlaceIsComparedByItsItemsAndAConfirmedPageOfAnOlderGenerationJoinsTheCurrentOne()
        async throws
    {
        let posts = ListDescriptor(key: "GET /posts", itemType: "Post")
        try await onBothStorages { storage in
            _ = try await storage.savePage(Self.page([1, 2], next: "2"), at: 0, in: posts)
            _ = try await storage.savePage(Self.page([3, 4], token: "2", next: nil), at: 1, in: posts)
            _ = try await storage.mergeHead([Self.item(0)], total: 5, in: posts)
            #expect(try await storage.pageInfo(at: 0, in: posts.key)?.digest == nil)
            #expect(try await storage.pageInfo(at: 2, in: posts.key) == nil)

            // The merged page has no digest: the same items, compared one by one, are unchanged.
            let same = try await storage.savePageIfChanged(Self.page([0, 1, 2], next: "2"), at: 0, in: posts)
            #expect(same.outcome == .unchanged)
            #expect(same.head.generation == 1)
            try await storage.markPageNotModified(at: 1, in: posts.key, validators: PageValidators(etag: "\"b\""))
            #expect(try await storage.pageInfo(at: 1, in: posts.key)?.validators.etag == "\"b\"")
            var lines = try await Self.outline(storage, host: "")

            // A changed first page starts a generation; a page confirmed after it joins it and ends the list.
            let changed = try await storage.savePageIfChanged(Self.page([0, 1, 9], next: "2"), at: 0, in: posts)
            #expect(changed.outcome == .changed)
            #expect(changed.head.generation == 2)
            #expect(changed.head.currentPageCount == 1)
            try await storage.markPageNotModified(at: 1, in: posts.key, validators: PageValidators())
            let info = try #require(try await storage.list(posts.key))
            #expect(info.supersededPageCount == 0 && info.endReached && info.resumeToken == nil)
            #expect(try await storage.pageInfo(at: 1, in: posts.key)?.validators.etag == "\"b\"")
            let new = try await storage.savePageIfChanged(
                Self.page([5], token: "9", next: nil), at: 0,
                in: ListDescriptor(key: "GET /new", itemType: "Post"))
            #expect(new.outcome == .new)
            await #expect(throws: CacheError.listNotFound(key: "GET /none")) {
                try await storage.markPageNotModified(at: 0, in: "GET /none", validators: PageValidators())
            }
            lines += try await Self.outline(storage, host: "")
            return lines
        }
    }

    // MARK: Helpers

    private static func item(_ id: Int, _ label: String = "v1") -> RawItem {
        RawItem(key: .integer(id), json: Data(#"{"id":\#(id),"label":"\#(label)"}"#.utf8))
    }

    private static func page(_ ids: [Int], token: PageToken? = nil, next: PageToken?) -> Page<RawItem> {
        Page(items: ids.map { item($0) }, token: token, nextToken: next)
    }

    /// Runs `scenario` on a new file and on a new PostgreSQL database; what each returns must match.
    private func onBothStorages(_ scenario: (any CacheStorage) async throws -> [String]) async throws {
        let directory = try TemporaryDirectory()
        let onFile = try await scenario(try SQLiteCache(path: directory.path()))
        try await PostgresServer.with { server in
            let cache = try await PostgresCache.open(
                try PostgresLocation(server.url(database: try await server.makeDatabase())))
            let onPostgres = try await scenario(cache)
            try await cache.close()
            #expect(onPostgres == onFile)
        }
    }

    /// What a revalidating walk found, as its counts.
    private struct Found: Equatable, Sendable {
        var unchanged = 0
        var changed = 0
        var new = 0
        var removed = 0
        var itemsWritten = 0
        var endReached = true

        init(unchanged: Int, changed: Int, new: Int, removed: Int, itemsWritten: Int) {
            (self.unchanged, self.changed, self.new, self.removed) = (unchanged, changed, new, removed)
            self.itemsWritten = itemsWritten
        }

        init(_ found: ListSync<PrimedPageSource>.Revalidation) {
            (unchanged, changed, new, removed) = (found.unchanged, found.changed, found.new, found.removed)
            (itemsWritten, endReached) = (found.itemsWritten, found.endReached)
        }
    }

    private static func found(
        unchanged: Int = 0, changed: Int = 0, new: Int = 0, removed: Int = 0, itemsWritten: Int = 0
    ) -> Found {
        Found(unchanged: unchanged, changed: changed, new: new, removed: removed, itemsWritten: itemsWritten)
    }

    /// Syncs a fixture list of `itemCount` items into a new file and into a new PostgreSQL
    /// database, then runs `scenario` on each with a revalidating sync of it; what each scenario
    /// returns and the caches it leaves must match.
    private func onBothBackends(
        itemCount: Int, validators: FixtureServer.Validators,
        _ scenario: (any CacheStorage, FixtureServer, ListSync<PrimedPageSource>) async throws -> Found
    ) async throws {
        try await StorageBackends.expectSame { storage in
            Outcome(try await run(scenario, on: storage, itemCount: itemCount, validators: validators))
        }
    }

    /// What a scenario found, and the cache it left.
    private struct Outcome: Equatable, Sendable {
        var found: Found
        var outline: [String]

        init(_ outcome: (found: Found, outline: [String])) {
            (found, outline) = outcome
        }
    }

    private func run(
        _ scenario: (any CacheStorage, FixtureServer, ListSync<PrimedPageSource>) async throws -> Found,
        on storage: any CacheStorage, itemCount: Int, validators: FixtureServer.Validators
    ) async throws -> (found: Found, outline: [String]) {
        let server = FixtureServer(configuration: .init(itemCount: itemCount, pageSize: 10))
        server.setValidators(validators)
        try await server.start()
        do {
            let url = server.url(.page)
            _ = try await Syncer().run(SyncRequest(url: url.absoluteString), into: storage)
            guard let configuration = ServerConfiguration(baseURL: server.baseURL) else {
                throw URLError(.badURL)
            }
            let client = APIClient(configuration: configuration, options: APIClient.Options(retryPolicy: .none))
            let plan = try await SyncPlan.make(storage: storage, client: client, url: url)
            let sync = ListSync(storage: storage, source: plan.source, list: plan.list)
            let found = try await scenario(storage, server, sync)
            let outline = try await Self.outline(storage, host: server.baseURL.absoluteString)
            await server.stop()
            return (found, outline)
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The list's head and pages, and each page's items, in words that leave dates and the server's port out.
    private static func outline(_ storage: any CacheStorage, host: String) async throws -> [String] {
        var lines: [String] = []
        for info in try await storage.lists() {
            lines.append(
                "generation \(info.generation) resume \(info.resumeToken?.rawValue ?? "-") end \(info.endReached) "
                    + "total \(info.total.map(String.init) ?? "-") pages \(info.pageCount) "
                    + "superseded \(info.supersededPageCount) items \(info.itemCount) "
                    + "invalidated \(info.invalidatedAt != nil)")
            for page in try await storage.pages(in: info.key) {
                let items = try await storage.page(at: page.index, in: info.key)?.items ?? []
                lines.append(
                    "  \(page.index) generation \(page.generation) superseded \(page.isSuperseded) "
                        + "\(page.token?.rawValue ?? "-") → \(page.nextToken?.rawValue ?? "-") "
                        + "etag \(page.validators.etag != nil) digest \(page.digest ?? "-"): "
                        + items.map { "\($0.key)" }.joined(separator: " "))
            }
        }
        return host.isEmpty ? lines : lines.map { $0.replacingOccurrences(of: host, with: "HOST") }
    }
}
