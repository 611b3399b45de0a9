import Foundation
import SlippersFixtures
import SlippersKit
import SlippersTestSupport
import Testing

/// The outbox sent to the fixture API over real HTTP, from a real cache file.
@Suite(.timeLimit(.minutes(2))) struct OutboxPushTests {
    /// A fixture list synced into the cache; its items are `page@http://127.0.0.1:PORT`.
    private func synced(_ fixture: Fixture) async throws -> (type: String, template: ItemURLTemplate) {
        let plan = try await SyncPlan.make(
            store: fixture.store, client: fixture.client, url: fixture.server.url(.page))
        try await CollectionSync(store: fixture.store, source: plan.source, collection: plan.collection).run()
        let template = try #require(ItemURLTemplate(listURL: fixture.server.url(.page)))
        fixture.server.resetRequests()
        return (plan.collection.itemType, template)
    }

    private func title(_ fixture: Fixture, _ type: String, _ id: Int) throws -> String? {
        let json = try #require(try fixture.store.item(type: type, key: .integer(id))).item.json
        return (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["title"] as? String
    }

    private func push(_ fixture: Fixture, rule: OutboxPush.ConflictRule = .serverWins) async throws
        -> OutboxPush.Report
    {
        var push = OutboxPush(store: fixture.store, client: fixture.client, headers: ["Authorization": "Bearer t"])
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
        try fixture.store.queueWrite(
            WriteRequest(
                kind: .merge, json: Data(#"{"title": "mine"}"#.utf8), url: template.url(for: .integer(id)),
                baseVersion: staleVersion), type: type, key: .integer(id))
        return (type, staleVersion)
    }

    @Test func writesAreSentInOrderOnceEachWithTheirKeyAndTheAnswerBecomesTheItem() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let first = try fixture.store.queueWrite(
            WriteRequest(kind: .merge, json: Data(#"{"title": "one"}"#.utf8), url: template.url(for: .integer(3))),
            type: type, key: .integer(3))
        try fixture.store.queueWrite(
            WriteRequest(kind: .merge, json: Data(#"{"title": "two"}"#.utf8), url: template.url(for: .integer(3))),
            type: type, key: .integer(3))
        try fixture.store.queueWrite(
            WriteRequest(kind: .delete, url: template.url(for: .integer(5))), type: type, key: .integer(5))

        let report = try await push(fixture)
        let counts: [Int] = [report.acknowledged, report.failed, report.conflicts, report.remaining]
        #expect(counts == [3, 0, 0, 0])
        #expect(report.stoppedBy == nil)
        let requests = fixture.server.requests
        #expect(requests.map(\.method) == ["PATCH", "PATCH", "DELETE"])
        #expect(requests.map(\.path) == ["/page/3", "/page/3", "/page/5"])
        #expect(requests[0].headers["Idempotency-Key"] == first.idempotencyKey)
        #expect(requests[0].authorization == "Bearer t")
        #expect(fixture.server.appliedWrites == 3)
        #expect(try title(fixture, type, 3) == "two")
        #expect(try fixture.store.pendingWrites().isEmpty)
        await fixture.server.stop()
    }

    @Test func aWriteWhoseAnswerIsLostIsSentAgainWithItsKeyAndAppliedOnce() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let retrying = HTTPClient(
            configuration: fixture.client.configuration,
            options: HTTPClient.Options(
                retryPolicy: RetryPolicy(
                    maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(10), jitter: 0.5)))
        let write = try fixture.store.queueWrite(
            WriteRequest(kind: .merge, json: Data(#"{"title": "once"}"#.utf8), url: template.url(for: .integer(2))),
            type: type, key: .integer(2))
        // The server applies the write, and the connection drops before the answer is whole.
        fixture.server.inject(.dropConnection)
        let report = try await OutboxPush(store: fixture.store, client: retrying).run()
        #expect(report.acknowledged == 1)
        #expect(fixture.server.requestCount == 2)
        #expect(Set(fixture.server.requests.map { $0.headers["Idempotency-Key"] }) == [write.idempotencyKey])
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
        #expect(fixture.server.requests.first?.headers["If-Match"] == staleVersion)
        #expect(fixture.server.requests.map(\.method) == ["PATCH", "GET"])
        #expect(try title(fixture, type, 4) == "changed on the server")
        #expect(fixture.server.appliedWrites == 0)
        await fixture.server.stop()
    }

    @Test func theClientWinsAConflictWhenToldBySendingItAgainWithoutIfMatch() async throws {
        let fixture = try await Fixture()
        let (type, _) = try await conflictingWrite(fixture, id: 4, theirs: "changed on the server")
        let report = try await push(fixture, rule: .clientWins)
        #expect(report.conflicts == 1)
        #expect(fixture.server.requests.map(\.method) == ["PATCH", "PATCH"])
        #expect(fixture.server.requests.last?.headers["If-Match"] == nil)
        #expect(try title(fixture, type, 4) == "mine")
        await fixture.server.stop()
    }

    @Test func aRefusedWriteFailsWithTheServersReasonAndTheItemsLaterWritesWait() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let long = String(repeating: "x", count: 300)
        let refused = try fixture.store.queueWrite(
            WriteRequest(kind: .merge, json: Data(#"{"title": "\#(long)"}"#.utf8), url: template.url(for: .integer(6))),
            type: type, key: .integer(6))
        try fixture.store.queueWrite(
            WriteRequest(kind: .merge, json: Data(#"{"title": "later"}"#.utf8), url: template.url(for: .integer(6))),
            type: type, key: .integer(6))
        try fixture.store.queueWrite(
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
        #expect(fixture.server.requests.map(\.path) == ["/page/6", "/page/7"])
        await fixture.server.stop()
    }

    @Test func aServerThatCannotBeReachedStopsThePushAndTheWritesStayPending() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        try fixture.store.queueWrite(
            WriteRequest(kind: .merge, json: Data(#"{"title": "offline"}"#.utf8), url: template.url(for: .integer(1))),
            type: type, key: .integer(1))
        await fixture.server.stop()
        let report = try await push(fixture)
        #expect(report.stoppedBy != nil)
        #expect(report.remaining == 1)
        #expect(try fixture.store.pendingWrites().first?.state == .pending)
        #expect(try fixture.store.pendingWrites().first?.attempts == 1)
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
        var push = OutboxPush(store: fixture.store, client: fixture.client)
        push.conflictRule = .merge { base, local, server in
            func title(_ json: Data) -> String {
                ((try? JSONSerialization.jsonObject(with: json)) as? [String: Any])?["title"] as? String ?? "?"
            }
            return Data(#"{"title": "\#(title(base).prefix(4))|\#(title(local))|\#(title(server))"}"#.utf8)
        }
        let report = try await push.run()
        #expect(report.conflicts == 1)
        #expect(report.remaining == 0)
        #expect(fixture.server.requests.map(\.method) == ["PATCH", "GET", "PUT"])
        #expect(try title(fixture, type, 8)?.hasSuffix("|mine|theirs") == true)
        await fixture.server.stop()
    }

    @Test func anOutboxLongerThanABatchIsSentWholeInOrder() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let count = OutboxPushBatch.size * 2 + 30
        for round in 0..<count {
            let id = round % 25 + 1
            try fixture.store.queueWrite(
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

/// The outbox's batch size, as the tests see it.
enum OutboxPushBatch {
    static let size = 100
}

extension OutboxPushTests {
    @Test func anInsertWhoseAnswerIsLostIsCreatedOnceAndARefusedOneFailsWithItsLaterWritesWaiting() async throws {
        let fixture = try await Fixture()
        let (type, template) = try await synced(fixture)
        let key = try #require(try fixture.store.collections().first?.key)
        let retrying = HTTPClient(
            configuration: fixture.client.configuration,
            options: HTTPClient.Options(
                retryPolicy: RetryPolicy(
                    maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(10), jitter: 0.5)))
        for (id, title) in [(-1, "made offline"), (-2, "")] {
            let json = Data(#"{"id":\#(id),"title":"\#(title)"}"#.utf8)
            try fixture.store.queueInsert(
                RawItem(key: .integer(id), json: json), type: type,
                request: WriteRequest(kind: .insert, json: json, url: template.collectionURL), into: key)
        }
        try fixture.store.queueWrite(
            WriteRequest(kind: .merge, json: Data(#"{"title": "later"}"#.utf8), url: template.url(for: .integer(-2))),
            type: type, key: .integer(-2))
        // The server creates the first, and the connection drops before the answer is whole.
        fixture.server.inject(.dropConnection)
        let report = try await OutboxPush(store: fixture.store, client: retrying).run()
        let counts: [Int] = [report.acknowledged, report.failed, report.remaining]
        #expect(counts == [1, 1, 2])
        #expect(fixture.server.requests.map(\.method) == ["POST", "POST", "POST"])
        #expect(fixture.server.appliedWrites == 1)
        #expect(try title(fixture, type, 26) == "made offline")
        let writes = try fixture.store.pendingWrites()
        #expect(writes.map(\.state) == [PendingWrite.State.failed, .pending])
        #expect(writes.first?.error?.contains("This field is required.") == true)
        await fixture.server.stop()
    }
}
