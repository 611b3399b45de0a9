import Foundation
import GRDB
import Slippers
import SlippersTestSupport
import Testing

@testable import SlippersSQLite

/// Per-page freshness in the cache: verification, digests, lifetimes, and the migration that added them.
@Suite struct SQLiteCacheFreshnessTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let key = Fixtures.posts.key
    let then = Date(timeIntervalSince1970: 1_000_000)

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    @Test func aPageWhoseDigestAnEarlierVersionMadeIsComparedItemByItem() throws {
        let page = Fixtures.page([1, 2], next: PageToken(2))
        try store.savePage(page, at: 0, in: Fixtures.posts, now: then)
        let digest = try #require(try store.pageInfo(at: 0, in: key)?.digest)
        // What an earlier version stored: FNV-1a, the count and the hash, no leading "x".
        func storeAnEarlierDigest() throws {
            let queue = try DatabaseQueue(path: directory.path())
            try queue.write { try $0.execute(sql: "UPDATE pages SET digest = '2:3b2d7f1c0a9e8d46'") }
            try queue.close()
        }
        try storeAnEarlierDigest()
        let unchanged = try store.savePageIfChanged(page, at: 0, in: Fixtures.posts)
        #expect(unchanged.outcome == .unchanged)
        #expect(unchanged.head.generation == 1)
        #expect(try store.pageInfo(at: 0, in: key)?.digest == digest)
        try storeAnEarlierDigest()
        let changed = try store.savePageIfChanged(
            Fixtures.page([1, 2], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        #expect(changed.outcome == .changed)
        #expect(try store.pageInfo(at: 0, in: key)?.digest != digest)
    }

    @Test func aSavedPageRecordsItsVerificationDigestAndLifetime() throws {
        var page = Fixtures.page([1, 2], next: PageToken(2))
        page.caching = PageCaching(
            headers: ["Cache-Control": "max-age=60, stale-while-revalidate=30, stale-if-error=600", "Vary": "Accept"])
        try store.savePage(page, at: 0, in: Fixtures.posts, now: then)
        let info = try #require(try store.pageInfo(at: 0, in: key))
        #expect(info.verifiedAt == then)
        #expect(info.digest != nil)
        #expect(info.lifetime == 60)
        #expect(info.staleWhileRevalidate == 30)
        #expect(info.staleIfError == 600)
        #expect(info.vary == ["accept"])
        #expect(info.validatorKind == .digest)
        #expect(info.isFresh(at: then.addingTimeInterval(59)))
        #expect(!info.isFresh(at: then.addingTimeInterval(60)))
        #expect(info.isWithinLifetime(at: then.addingTimeInterval(10)))
    }

    @Test func theSameItemsByDigestAreNotModifiedAndStartNoGeneration() throws {
        try store.savePage(Fixtures.page([1, 2], next: PageToken(2)), at: 0, in: Fixtures.posts, now: then)
        try store.savePage(Fixtures.page([3, 4], token: PageToken(2), next: nil), at: 1, in: Fixtures.posts, now: then)
        let later = then.addingTimeInterval(60)
        let save = try store.savePageIfChanged(
            Fixtures.page([1, 2], next: PageToken(2)), at: 0, in: Fixtures.posts, now: later)
        #expect(save.outcome == .unchanged)
        #expect(save.head.generation == 1)
        #expect(save.head.currentPageCount == 2)
        #expect(save.head.endReached)
        #expect(try store.pageInfo(at: 0, in: key)?.verifiedAt == later)
        #expect(try store.item(type: "Post", key: .integer(1))?.updatedAt == then)
        #expect(try store.pageInfo(at: 1, in: key)?.isSuperseded == false)
    }

    @Test func otherItemsAreAChangeAndANewPageIsNew() throws {
        let first = try store.savePageIfChanged(Fixtures.page([1, 2], next: PageToken(2)), at: 0, in: Fixtures.posts)
        #expect(first.outcome == .new)
        let edited = try store.savePageIfChanged(
            Fixtures.page([1, 2], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        #expect(edited.outcome == .changed)
        #expect(edited.head.generation == 2)
    }

    @Test func anUnchangedPageOfAnOlderGenerationJoinsTheCurrentOneAndMovesTheResumePoint() throws {
        try store.savePage(Fixtures.page([1, 2], next: PageToken(2)), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([3, 4], token: PageToken(2), next: PageToken(3)), at: 1, in: Fixtures.posts)
        // A deep edit on page 1 only: page 0 is refetched changed (a new generation), page 1 is the same.
        try store.savePage(Fixtures.page([1, 2], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        #expect(try store.pageInfo(at: 1, in: key)?.isSuperseded == true)
        let save = try store.savePageIfChanged(
            Fixtures.page([3, 4], token: PageToken(2), next: PageToken(3)), at: 1, in: Fixtures.posts)
        #expect(save.outcome == .unchanged)
        #expect(save.head.currentPageCount == 2)
        #expect(save.head.resumeToken == PageToken(3))
    }

    @Test func aNotModifiedPageOfAnOlderGenerationJoinsTheCurrentOne() throws {
        try store.savePage(Fixtures.page([1, 2], next: PageToken(2)), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([3, 4], token: PageToken(2), next: PageToken(3)), at: 1, in: Fixtures.posts)
        try store.savePage(Fixtures.page([1, 2], next: PageToken(2), label: "v2"), at: 0, in: Fixtures.posts)
        try store.markPageNotModified(at: 1, in: key, validators: PageValidators(etag: "\"p1\""))
        let head = try #require(try store.listHead(key))
        #expect(head.currentPageCount == 2)
        #expect(head.resumeToken == PageToken(3))
        #expect(try store.pageInfo(at: 1, in: key)?.validators.etag == "\"p1\"")
    }

    @Test func aChangedNextTokenDetachesThePagesAfterIt() throws {
        try store.savePage(Fixtures.page([1, 2], next: PageToken("a")), at: 0, in: Fixtures.posts)
        try store.savePage(Fixtures.page([3, 4], token: "a", next: PageToken("b")), at: 1, in: Fixtures.posts)
        try store.savePage(Fixtures.page([5, 6], token: "b", next: PageToken("c")), at: 2, in: Fixtures.posts)
        // Page 1 now leads elsewhere: page 2 no longer follows it.
        let save = try store.savePageIfChanged(
            Fixtures.page([3, 4, 5], token: "a", next: PageToken("z")), at: 1, in: Fixtures.posts)
        #expect(save.outcome == .changed)
        #expect(save.head.currentPageCount == 2)
        #expect(save.head.resumeToken == PageToken("z"))
        #expect(try store.pageInfo(at: 2, in: key)?.isSuperseded == true)
    }

    @Test func invalidatingMarksEveryPageUnverifiedUntilItIsVerifiedAgain() throws {
        try store.savePage(Fixtures.page([1, 2], next: PageToken(2)), at: 0, in: Fixtures.posts, now: then)
        try store.savePage(Fixtures.page([3], token: PageToken(2), next: nil), at: 1, in: Fixtures.posts, now: then)
        try store.invalidate(key, now: then.addingTimeInterval(10))
        #expect(try store.pages(in: key).map(\.isUnverified) == [true, true])
        try store.markPageNotModified(at: 0, in: key, now: then.addingTimeInterval(20))
        #expect(try store.pages(in: key).map(\.isUnverified) == [false, true])
        // The first page's revalidation ends the invalidation; the unverified page keeps the list unverified.
        let info = try #require(try store.list(key))
        #expect(info.invalidatedAt == nil)
        #expect(info.unverifiedPageCount == 1)
        #expect(info.isUnverified)
        let other = try SQLiteCache(path: directory.path(), mode: .readOnly)
        #expect(try other.pages(in: key).map(\.isUnverified) == [false, true])
    }

    @Test func aFileOfTheEarlierSchemaIsMigratedWithoutLosingAPage() throws {
        let legacy = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: legacy.path())
        var migrator = DatabaseMigrator()
        for migration in EmbeddedMigrations.all where migration.identifier < "0003" {
            migrator.registerMigration(migration.identifier) { db in try db.execute(sql: migration.sql) }
        }
        try migrator.migrate(queue)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO collections (id, key, item_type, resume_token, created_at, refreshed_at, generation)
                    VALUES (1, 'GET /posts', 'Post', '2', 1000000, 1000000, 1);
                    INSERT INTO items (id, type, key, json, updated_at) VALUES
                        (1, 'Post', 1, '{"id":1,"label":"v1"}', 1000000), (2, 'Post', 2, '{"id":2,"label":"v1"}', 1000000);
                    INSERT INTO pages (id, collection_id, idx, generation, token, next_token, etag, fetched_at, item_count)
                    VALUES (1, 1, 0, 1, NULL, '2', '"e0"', 1000000, 2);
                    INSERT INTO page_items (page_id, position, item_id) VALUES (1, 0, 1), (1, 1, 2);
                    """)
        }
        try queue.close()

        let migrated = try SQLiteCache(path: legacy.path())
        let page = try #require(try migrated.page(at: 0, in: key))
        #expect(Fixtures.ids(page.items) == [1, 2])
        #expect(page.info.validators.etag == "\"e0\"")
        #expect(page.info.verifiedAt == then)
        #expect(page.info.digest == nil)
        #expect(!page.info.isUnverified)
        // A page saved before digests existed is compared item by item.
        let save = try migrated.savePageIfChanged(Fixtures.page([1, 2], next: PageToken(2)), at: 0, in: Fixtures.posts)
        #expect(save.outcome == .unchanged)
        #expect(save.head.generation == 1)
        #expect(try migrated.pageInfo(at: 0, in: key)?.digest != nil)
    }
}
