import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// The outbox sent to the fixture API over real HTTP, from a real cache file.
@Suite(.timeLimit(.minutes(2))) struct OutboxPushTests {
    /// A fixture list synced into the cache; its items are `page@http://127.0.0.1:PORT`.
    private func synced(_ fixture: Fixture) async throws -> (type: String, template: ItemURLTemplate) {
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(.page))
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run()
        let template = try #require(ItemURLTemplate(listURL: fixture.server.url(.page)))
        fixture.server.resetRequests()
        return (plan.list.itemType, template)
    }

    private func title(_ fixture: Fixture, _ type: String, _ id: Int) throws -> String? {
        let json = try #require(try fixture.store.item(type: type, key: .integer(id))).item.json
        return (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["title"] as? String
    }

    private func push(_ fixture: Fixture, rule: OutboxPush.ConflictRule = .serverWins) async throws
        -> OutboxPush.Report
    {
        var push = OutboxPush(cache: fixture.store, client: fixture.client, headers: ["Authorization": "Bearer t"])
        // The lists were synced without credentials: their writes are the anonymous account's, sent with a token.
        push.account = .anonymous
        push.conflictRule = rule
        return try await push.run()
    }

    /// A write of `{"title": "mine"}` to item `id`, based on its version before the server changed its title to `theirs`.
    private func conflictingWrite(_ fixture: Fixture, id: Int, theirs: String) async throws -> (
        type: String, staleVersion: String
    ) {
        let (type, template) = try await synced(fixture)
        let staleVersion = try #require(fixture.server.itemETag(id: id))
        fixture.server.update(id: id, title: theirs)
        try fixture.store.writeLocally(
            WriteRequest(
                kind: .merge, json: Data(#"{"title": "mine"}"#.utf8), url: template.url(for: .integer(id)),
                baseVersion: staleVersion), type: type, key: .integer(id))
        return (type, staleVersion)
    }

    @Test func writesAreSentInOrderOnceEachWithTheirKeyAndTheAnswerBecomesTheItem() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let first = try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "one"}"#.utf8), url: template.url(for: .integer(3))),
            type: type, key: .integer(3))
        try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "two"}"#.utf8), url: template.url(for: .integer(3))),
            type: type, key: .integer(3))
        try fixture.store.writeLocally(
            WriteRequest(kind: .delete, url: template.url(for: .integer(5))), type: type, key: .integer(5))

        let before = try #require(fixture.server.itemETag(id: 3))
        let report = try await push(fixture)
        let counts: [Int] = [report.acknowledged, report.failed, report.conflicts, report.remaining]
        #expect(counts == [3, 0, 0, 0])
        #expect(report.stoppedBy == nil)
        // Each change goes after a read of its item that shows the server's copy is still its base
        // (the reads of several items go together).
        let requests = fixture.server.requests
        let sent = requests.filter { $0.method != "GET" }
        #expect(sent.map(\.method) == ["PATCH", "PATCH", "DELETE"])
        #expect(sent.map(\.path) == ["/page/3", "/page/3", "/page/5"])
        #expect(requests.filter { $0.method == "GET" }.map(\.path).sorted() == ["/page/3", "/page/3", "/page/5"])
        for (index, request) in requests.enumerated() where request.method != "GET" {
            #expect(requests[..<index].contains { $0.method == "GET" && $0.path == request.path })
        }
        #expect(sent[0].headers["Idempotency-Key"] == first.idempotencyKey)
        #expect(sent[0].headers["If-Match"] == before)
        #expect(requests.allSatisfy { $0.authorization == "Bearer t" })
        #expect(fixture.server.appliedWrites == 3)
        #expect(try title(fixture, type, 3) == "two")
        #expect(try fixture.store.pendingWrites().isEmpty)
        await fixture.server.stop()
    }

    @Test func aWriteWhoseAnswerIsLostIsSentAgainWithItsKeyAndAppliedOnce() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let retrying = APIClient(
            configuration: fixture.client.configuration,
            options: APIClient.Options(
                retryPolicy: RetryPolicy(
                    maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(10), jitter: 0.5)))
        let write = try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "once"}"#.utf8), url: template.url(for: .integer(2))),
            type: type, key: .integer(2))
        // The read goes through; the server applies the write, and the connection drops before the answer is whole.
        fixture.server.inject(.delay(.zero))
        fixture.server.inject(.dropConnection)
        let report = try await OutboxPush(cache: fixture.store, client: retrying).run()
        #expect(report.acknowledged == 1)
        #expect(fixture.server.requests.map(\.method) == ["GET", "PATCH", "PATCH"])
        #expect(
            Set(fixture.server.requests.dropFirst().map { $0.headers["Idempotency-Key"] }) == [write.idempotencyKey])
        #expect(fixture.server.appliedWrites == 1)
        #expect(try title(fixture, type, 2) == "once")
        await fixture.server.stop()
    }

    @Test func aStaleIfMatchIsAConflictTheServerWinsByDefault() async throws {
        let fixture = try await Fixture()
        let (type, staleVersion) = try await conflictingWrite(fixture, id: 4, theirs: "changed on the server")
        let report = try await push(fixture)
        #expect(report.conflicts == 1)
        #expect(report.remaining == 0)
        // The read shows the change: nothing is written.
        #expect(fixture.server.requests.first?.headers["If-None-Match"] == staleVersion)
        #expect(fixture.server.requests.map(\.method) == ["GET"])
        #expect(try title(fixture, type, 4) == "changed on the server")
        #expect(fixture.server.appliedWrites == 0)
        await fixture.server.stop()
    }

    @Test func theClientWinsAConflictWhenToldBySendingItAgainWithoutIfMatch() async throws {
        let fixture = try await Fixture()
        let (type, _) = try await conflictingWrite(fixture, id: 4, theirs: "changed on the server")
        let current = try #require(fixture.server.itemETag(id: 4))
        let report = try await push(fixture, rule: .clientWins)
        #expect(report.conflicts == 1)
        #expect(report.acknowledged == 1)
        // Sent once, over the server's current version, which the read gave.
        #expect(fixture.server.requests.map(\.method) == ["GET", "PATCH"])
        #expect(fixture.server.requests.last?.headers["If-Match"] == current)
        #expect(try title(fixture, type, 4) == "mine")
        await fixture.server.stop()
    }

    @Test func aRefusedWriteFailsWithTheServersReasonAndTheItemsLaterWritesWait() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let long = String(repeating: "x", count: 300)
        let refused = try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "\#(long)"}"#.utf8), url: template.url(for: .integer(6))),
            type: type, key: .integer(6))
        try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "later"}"#.utf8), url: template.url(for: .integer(6))),
            type: type, key: .integer(6))
        try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "other"}"#.utf8), url: template.url(for: .integer(7))),
            type: type, key: .integer(7))
        let report = try await push(fixture)
        #expect(report.failed == 1)
        #expect(report.acknowledged == 1)
        #expect(report.remaining == 2)
        let failed = try #require(try fixture.store.pendingWrites().first)
        #expect(failed.id == refused.id)
        #expect(failed.state == .failed)
        #expect(failed.error?.contains("HTTP 400") == true)
        #expect(failed.error?.contains("no more than 200 characters") == true)
        // The change stays shown until the write is retried or discarded.
        #expect(try title(fixture, type, 6) == "later")
        let sent = fixture.server.requests.filter { $0.method != "GET" }
        #expect(sent.map(\.path) == ["/page/6", "/page/7"])
        #expect(fixture.server.requests.filter { $0.method == "GET" }.map(\.path).sorted() == ["/page/6", "/page/7"])
        await fixture.server.stop()
    }

    @Test func aServerThatCannotBeReachedStopsThePushAndTheWritesStayPending() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "offline"}"#.utf8), url: template.url(for: .integer(1))),
            type: type, key: .integer(1))
        await fixture.server.stop()
        let report = try await push(fixture)
        #expect(report.stoppedBy != nil)
        #expect(report.remaining == 1)
        #expect(try fixture.store.pendingWrites().first?.state == .pending)
        // The read before it failed: it was never sent.
        #expect(try fixture.store.pendingWrites().first?.attempts == 0)
        #expect(try title(fixture, type, 1) == "offline")

        // Back online, the same write goes, with the same key.
        try await fixture.server.start()
        let again = try await push(fixture)
        #expect(again.acknowledged == 1)
        #expect(fixture.server.appliedWrites == 1)
        await fixture.server.stop()
    }

    @Test func aMergeRuleGetsTheBaseTheLocalChangeAndTheServersCopyAndSendsTheMergedItem() async throws {
        let fixture = try await Fixture()
        let (type, _) = try await conflictingWrite(fixture, id: 8, theirs: "theirs")
        var push = OutboxPush(cache: fixture.store, client: fixture.client)
        push.conflictRule = .merge { base, local, server in
            func title(_ json: Data) -> String {
                ((try? JSONSerialization.jsonObject(with: json)) as? [String: Any])?["title"] as? String ?? "?"
            }
            return Data(#"{"title": "\#(title(base).prefix(4))|\#(title(local))|\#(title(server))"}"#.utf8)
        }
        let report = try await push.run()
        #expect(report.conflicts == 1)
        #expect(report.remaining == 0)
        // The read shows the server's copy: merged and sent over its version, no PATCH.
        #expect(fixture.server.requests.map(\.method) == ["GET", "PUT"])
        #expect(try title(fixture, type, 8)?.hasSuffix("|mine|theirs") == true)
        await fixture.server.stop()
    }

    @Test func anOutboxLongerThanABatchIsSentWholeInOrder() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let count = OutboxPushBatch.size * 2 + 30
        for round in 0..<count {
            let id = round % 25 + 1
            try fixture.store.writeLocally(
                WriteRequest(
                    kind: .merge, json: Data(#"{"title": "round \#(round)"}"#.utf8),
                    url: template.url(for: .integer(id))),
                type: type, key: .integer(id))
        }
        let report = try await push(fixture)
        #expect(report.acknowledged == count)
        #expect(report.remaining == 0)
        #expect(fixture.server.appliedWrites == count)
        // Each item ends with its last write: they were sent in order.
        #expect(try title(fixture, type, 1) == "round \((count - 1) / 25 * 25)")
        await fixture.server.stop()
    }
}

extension OutboxPushTests {
    @Test func anOriginThatDemandsIfMatchGetsTheVersionItsItemShowsOnce() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        var writes = FixtureServer.Configuration.Writes()
        writes.requiresIfMatch = true
        fixture.server.setWrites(writes)
        // Known to enforce preconditions: the change goes without a read first, and without a version.
        try fixture.store.noteEnforcesPreconditions(try #require(Origin(fixture.server.url(.page))).description)
        try fixture.store.writeLocally(
            WriteRequest(
                kind: .merge, json: Data(#"{"title": "versioned"}"#.utf8), url: template.url(for: .integer(9))),
            type: type, key: .integer(9))
        let version = try #require(fixture.server.itemETag(id: 9))
        let report = try await push(fixture)
        #expect(report.acknowledged == 1)
        #expect(report.conflicts == 0)
        #expect(fixture.server.requests.map(\.method) == ["PATCH", "GET", "PATCH"])
        #expect(fixture.server.requests.last?.headers["If-Match"] == version)
        #expect(fixture.server.appliedWrites == 1)
        #expect(try title(fixture, type, 9) == "versioned")
        await fixture.server.stop()
    }

    @Test func theLaterWritesOfACreatedItemGoWhereItsLocationSays() async throws {
        let fixture = try await Fixture()
        // A list at /page/ whose items live at /page/{id}, without the trailing slash its template guesses.
        let listURL = fixture.server.url(path: "/page/")
        let plan = try await SyncPlan.make(storage: fixture.store, client: fixture.client, url: listURL)
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run()
        var writes = FixtureServer.Configuration.Writes()
        writes.acceptsTrailingSlash = false
        fixture.server.setWrites(writes)
        let template = try #require(ItemURLTemplate(listURL: listURL))
        let type = plan.list.itemType
        let json = Data(#"{"id": -1, "title": "made offline"}"#.utf8)
        try fixture.store.insertLocally(
            RawItem(key: .integer(-1), json: json), type: type,
            request: WriteRequest(kind: .insert, json: json, url: listURL.absoluteString), into: plan.list.key)
        try fixture.store.writeLocally(
            WriteRequest(
                kind: .merge, json: Data(#"{"title": "then edited"}"#.utf8), url: template.url(for: .integer(-1))),
            type: type, key: .integer(-1))
        fixture.server.resetRequests()
        let report = try await OutboxPush(cache: fixture.store, client: fixture.client).run()
        #expect(report.acknowledged == 2, "\(report.problems)")
        #expect(fixture.server.requests.filter { $0.method == "PATCH" }.map(\.path) == ["/page/26"])
        #expect(try title(fixture, type, 26) == "then edited")
        await fixture.server.stop()
    }

    @Test func theChangesOfAnItemMadeOfflineGoAfterItsInsertAmongOtherChanges() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let key = try #require(try fixture.store.lists().first?.key)
        // Reads of several items go ahead of their changes: never of an item the server does not have yet.
        try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "one"}"#.utf8), url: template.url(for: .integer(1))),
            type: type, key: .integer(1))
        let json = Data(#"{"id": -1, "title": "made offline"}"#.utf8)
        try fixture.store.insertLocally(
            RawItem(key: .integer(-1), json: json), type: type,
            request: WriteRequest(kind: .insert, json: json, url: template.creationURL), into: key)
        for (id, title) in [(-1, "then edited"), (2, "two"), (3, "three")] {
            try fixture.store.writeLocally(
                WriteRequest(
                    kind: .merge, json: Data(#"{"title": "\#(title)"}"#.utf8), url: template.url(for: .integer(id))),
                type: type, key: .integer(id))
        }
        let report = try await push(fixture)
        #expect(report.acknowledged == 5, "\(report.problems)")
        #expect(report.failed == 0)
        #expect(try title(fixture, type, 26) == "then edited")
        #expect(fixture.server.appliedWrites == 5)
        await fixture.server.stop()
    }

    @Test func anInsertWhoseListCannotBeReadIsLeftInDoubtWithWhatToCheck() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let key = try #require(try fixture.store.lists().first?.key)
        let json = Data(#"{"id": -1, "title": "made offline"}"#.utf8)
        try fixture.store.insertLocally(
            RawItem(key: .integer(-1), json: json), type: type,
            request: WriteRequest(kind: .insert, json: json, url: template.creationURL), into: key)
        // The POST is answered 503, and so is the list it would be looked for in.
        fixture.server.inject(.status(503), count: 20)
        let report = try await OutboxPush(cache: fixture.store, client: fixture.client).run()
        #expect(report.inDoubt == 1)
        #expect(report.acknowledged == 0)
        #expect(fixture.server.requests.filter { $0.method == "POST" }.count == 1)
        let write = try #require(try fixture.store.pendingWrites().first)
        #expect(write.state == .inDoubt)
        #expect(write.error?.contains("outbox retry \(write.id)") == true, "\(write.error ?? "")")
        #expect(report.problems.map(\.state) == [.inDoubt])

        // In doubt, it is not sent again by a push; retried (the caller's word that the server does
        // not hold it), it is sent once.
        fixture.server.clearFaults()
        fixture.server.resetRequests()
        _ = try await OutboxPush(cache: fixture.store, client: fixture.client).run()
        #expect(fixture.server.requests.isEmpty)
        try fixture.store.retryWrite(write.id)
        let again = try await OutboxPush(cache: fixture.store, client: fixture.client).run()
        #expect(again.acknowledged == 1)
        #expect(fixture.server.requests.map(\.method) == ["POST"])
        #expect(fixture.server.appliedWrites == 1)
        await fixture.server.stop()
    }
}

/// The outbox's batch size, as the tests see it.
enum OutboxPushBatch {
    static let size = 100
}

extension OutboxPushTests {
    @Test func anInsertWhoseAnswerIsLostIsCreatedOnceAndARefusedOneFailsWithItsLaterWritesWaiting() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let key = try #require(try fixture.store.lists().first?.key)
        let retrying = APIClient(
            configuration: fixture.client.configuration,
            options: APIClient.Options(
                retryPolicy: RetryPolicy(
                    maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(10), jitter: 0.5)))
        for (id, title) in [(-1, "made offline"), (-2, "")] {
            let json = Data(#"{"id":\#(id),"title":"\#(title)"}"#.utf8)
            try fixture.store.insertLocally(
                RawItem(key: .integer(id), json: json), type: type,
                request: WriteRequest(kind: .insert, json: json, url: template.creationURL), into: key)
        }
        try fixture.store.writeLocally(
            WriteRequest(kind: .merge, json: Data(#"{"title": "later"}"#.utf8), url: template.url(for: .integer(-2))),
            type: type, key: .integer(-2))
        // The server creates the first, and the connection drops before the answer is whole.
        fixture.server.inject(.dropConnection)
        let report = try await OutboxPush(cache: fixture.store, client: retrying).run()
        let counts: [Int] = [report.acknowledged, report.failed, report.remaining]
        #expect(counts == [1, 1, 2])
        // The lost answer is not sent again: the list's first and last pages show the item created.
        #expect(fixture.server.requests.map(\.method) == ["POST", "GET", "GET", "POST"])
        #expect(fixture.server.appliedWrites == 1)
        #expect(try title(fixture, type, 26) == "made offline")
        let writes = try fixture.store.pendingWrites()
        #expect(writes.map(\.state) == [PendingWrite.State.failed, .pending])
        #expect(writes.first?.error?.contains("This field is required.") == true)
        await fixture.server.stop()
    }
}
