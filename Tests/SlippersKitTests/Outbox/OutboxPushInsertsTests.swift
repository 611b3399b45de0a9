import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Inserts whose answer was lost, looked for on a fixture server whose create and list shapes
/// differ (a write-only `author_id` posted, `author: {"id", "name"}` listed), over real HTTP,
/// from a real cache file.
@Suite(.timeLimit(.minutes(2))) struct OutboxPushInsertsTests {
    /// A server that ignores `Idempotency-Key` (so a second POST would create a second item) and
    /// takes its create in `writes`' shape; its list synced into the cache.
    private func synced(_ configure: (inout FixtureServer.Configuration.Writes) -> Void) async throws -> (
        fixture: Fixture, type: String, key: String, creationURL: String
    ) {
        let fixture = try await Fixture()
        var writes = FixtureServer.Configuration.Writes()
        writes.honoursIdempotencyKey = false
        writes.sendsETags = false
        configure(&writes)
        fixture.server.setWrites(writes)
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(.page))
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run()
        let template = try #require(ItemURLTemplate(listURL: fixture.server.url(.page)))
        return (fixture, plan.list.itemType, plan.list.key, template.creationURL)
    }

    /// Queues an insert of `json` (with the provisional id -1).
    private func queued(_ json: String, _ synced: (fixture: Fixture, type: String, key: String, creationURL: String))
        throws -> PendingWrite
    {
        let body = Data(json.utf8)
        return try synced.fixture.store.insertLocally(
            RawItem(key: .integer(-1), json: body), type: synced.type,
            request: WriteRequest(kind: .insert, json: body, url: synced.creationURL), into: synced.key)
    }

    /// What a push killed after the server applied its POST leaves: one attempt recorded, and
    /// the server holding the item, its answer never read.
    private func postedAndKilled(_ write: PendingWrite, body: String) async throws {
        let url = try #require(URL(string: write.url))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        _ = try await URLSession.shared.data(for: request)
    }

    private func push(_ fixture: Fixture) async throws -> OutboxPush.Report {
        try await OutboxPush(cache: fixture.store, client: fixture.client).run()
    }

    private func object(_ json: Data?) -> [String: Any] {
        json.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] } ?? [:]
    }

    @Test func aLostInsertIsFoundByAReferenceTheListShowsNestedAndIsNotPostedAgain() async throws {
        let synced = try await synced { $0.authorReference = "author_id" }
        let fixture = synced.fixture
        let write = try queued(#"{"id": -1, "title": "Made offline", "author_id": 7}"#, synced)
        try fixture.store.recordAttempt(ofWrite: write.id)
        try await postedAndKilled(write, body: #"{"title": "Made offline", "author_id": 7}"#)
        #expect(fixture.server.appliedWrites == 1)
        fixture.server.resetRequests()

        let report = try await push(fixture)
        #expect(report.acknowledged == 1, "\(report.problems)")
        #expect(report.inDoubt == 0)
        #expect(fixture.server.requests.filter { $0.method == "POST" }.isEmpty)
        #expect(fixture.server.appliedWrites == 1)
        // Filed under the server's id, as the list shows it: the write-only member is not added.
        let item = object(try fixture.store.item(type: synced.type, key: .integer(26))?.item.json)
        #expect(item["title"] as? String == "Made offline")
        #expect((item["author"] as? [String: Any])?["id"] as? Int == 7)
        #expect(item["author_id"] == nil)
        #expect(try fixture.store.item(type: synced.type, key: .integer(-1)) == nil)
        #expect(try fixture.store.pendingWrites().isEmpty)
        await fixture.server.stop()
    }

    @Test func aPostWhoseConnectionDropsIsFoundByItsCamelCaseReferenceInTheSamePush() async throws {
        let synced = try await synced { $0.authorReference = "authorId" }
        let fixture = synced.fixture
        _ = try queued(#"{"id": -1, "title": "Made offline", "authorId": 12}"#, synced)
        // The server applies the POST and the connection drops before its answer is whole.
        fixture.server.inject(.dropConnection)
        fixture.server.resetRequests()

        let report = try await push(fixture)
        #expect(report.acknowledged == 1, "\(report.problems)")
        #expect(fixture.server.requests.filter { $0.method == "POST" }.count == 1)
        #expect(fixture.server.appliedWrites == 1)
        let item = object(try fixture.store.item(type: synced.type, key: .integer(26))?.item.json)
        #expect((item["author"] as? [String: Any])?["id"] as? Int == 12)
        await fixture.server.stop()
    }

    @Test func aLostInsertSharingOnlyGeneratedMembersWithTheListStaysInDoubtInOneLineAndIsNotSentAgain() async throws {
        // The create takes a write-only `headline`; the list shows `title`, and `created_at` of its own.
        let synced = try await synced { $0.titleMember = "headline" }
        let fixture = synced.fixture
        let body = #"{"headline": "Made offline", "created_at": "2026-11-27T09:00:00Z"}"#
        let write = try queued(#"{"id": -1, "headline": "Made offline", "created_at": "2026-11-27T09:00:00Z"}"#, synced)
        try fixture.store.recordAttempt(ofWrite: write.id)
        try await postedAndKilled(write, body: body)
        fixture.server.resetRequests()

        let report = try await push(fixture)
        #expect(report.inDoubt == 1)
        #expect(report.acknowledged == 0)
        #expect(fixture.server.requests.filter { $0.method == "POST" }.isEmpty)
        #expect(fixture.server.appliedWrites == 1)
        let reason = try #require(report.problems.first?.reason)
        #expect(!reason.contains("\n"))
        #expect(
            reason.contains("new item (id 26) shows none of the members it posted (created_at, headline)"), "\(reason)")
        #expect(
            reason.contains("slippers outbox retry \(write.id)") && reason.contains("drop \(write.id)"), "\(reason)")

        // In doubt, it is not sent again; dropped (it is there), the outbox is empty and the server holds it once.
        fixture.server.resetRequests()
        let again = try await push(fixture)
        #expect(again.inDoubt == 0)
        #expect(fixture.server.requests.isEmpty)
        try fixture.store.discardWrite(write.id)
        #expect(try fixture.store.pendingWrites().isEmpty)
        #expect(fixture.server.appliedWrites == 1)
        await fixture.server.stop()
    }

    @Test func twoNewItemsThatMatchALostInsertLeaveItInDoubt() async throws {
        let synced = try await synced { $0.authorReference = "author_id" }
        let fixture = synced.fixture
        let body = #"{"title": "Made offline", "author_id": 7}"#
        let write = try queued(#"{"id": -1, "title": "Made offline", "author_id": 7}"#, synced)
        try fixture.store.recordAttempt(ofWrite: write.id)
        try await postedAndKilled(write, body: body)
        // Another client made the same item meanwhile: which one is ours, nothing says.
        try await postedAndKilled(write, body: body)
        fixture.server.resetRequests()

        let report = try await push(fixture)
        #expect(report.inDoubt == 1)
        #expect(fixture.server.requests.filter { $0.method == "POST" }.isEmpty)
        let reason = report.problems.first?.reason ?? ""
        #expect(reason.contains("2 items new to the cache match what it posted (ids 27, 26)"), "\(reason)")
        await fixture.server.stop()
    }

    @Test func anItemTheCacheHeldBeforeTheInsertIsNotTakenForIt() async throws {
        let synced = try await synced { $0.authorReference = "author_id" }
        let fixture = synced.fixture
        // A copy of item 3, posted by a push killed before the POST reached the server.
        let three = FixtureItem.make(id: 3)
        let write = try queued(#"{"id": -1, "title": "\#(three.title)", "author_id": \#(three.author.id)}"#, synced)
        try fixture.store.recordAttempt(ofWrite: write.id)
        fixture.server.resetRequests()

        let report = try await push(fixture)
        #expect(report.acknowledged == 1, "\(report.problems)")
        #expect(fixture.server.requests.filter { $0.method == "POST" }.count == 1)
        #expect(fixture.server.appliedWrites == 1)
        let item = object(try fixture.store.item(type: synced.type, key: .integer(26))?.item.json)
        #expect(item["title"] as? String == three.title)
        await fixture.server.stop()
    }
}
