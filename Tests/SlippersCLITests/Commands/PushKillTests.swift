import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// `slippers push` killed with SIGKILL at each point of a `PATCH` and a `POST` (before sending,
/// while the server holds the answer, after it answered), on servers that honour
/// `Idempotency-Key` and `If-Match` and on servers that ignore them: the server holds each write
/// exactly once, and no change the server made is overwritten.
@Suite struct PushKillTests {
    /// The moments a push is killed at.
    enum Moment: String, CaseIterable {
        /// Before the write is sent: while the server holds the read before a change, or the list of an insert.
        case beforeSending
        /// After the server applied the write and before it answered.
        case whileTheServerHoldsTheAnswer
        /// Just after the server answered.
        case afterTheAnswer
    }

    /// A careful server; one that ignores `Idempotency-Key` and `If-Match` and sends no `ETag`; one
    /// that requires `If-Match` (`428` without); one that routes items without a trailing slash only.
    static let servers: [(name: String, writes: FixtureServer.Configuration.Writes)] = [
        ("careful", FixtureServer.Configuration.Writes()),
        (
            "requiring If-Match",
            {
                var writes = FixtureServer.Configuration.Writes()
                writes.requiresIfMatch = true
                writes.honoursIdempotencyKey = false
                return writes
            }()
        ),
        (
            "without trailing slashes",
            {
                var writes = FixtureServer.Configuration.Writes()
                writes.acceptsTrailingSlash = false
                writes.honoursIdempotencyKey = false
                return writes
            }()
        ),
        (
            "ignoring",
            {
                var writes = FixtureServer.Configuration.Writes()
                writes.honoursIdempotencyKey = false
                writes.honoursIfMatch = false
                writes.sendsETags = false
                return writes
            }()
        ),
    ]

    static let cases: [(Moment, Int)] = Moment.allCases.flatMap { moment in servers.indices.map { (moment, $0) } }

    /// Syncs a list, queues a write with `edit` (its arguments after the URL), pushes it, kills the
    /// push at `moment` on the server of `index`, and pushes again: the second push's outcome.
    private func killedThenPushedAgain(
        _ edit: [String], moment: Moment, server index: Int, fixture: RunningFixture, db: [String]
    ) async throws -> BuiltBinary.Outcome {
        let server = fixture.server
        let url = fixture.url()
        #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
        var writes = Self.servers[index].writes
        // Held long enough that a kill lands before the answer, however loaded the machine.
        // Held long enough that the kill lands before the answer even on a loaded machine.
        writes.answerDelay = moment == .whileTheServerHoldsTheAnswer ? .seconds(10) : .milliseconds(400)
        server.setWrites(writes)
        let queued = try await BuiltBinary.slippers.run(["edit", url] + edit + db)
        #expect(queued.status == 0, "\(queued.stderr)")
        server.resetRequests()

        if moment == .beforeSending { server.hold() }
        let output = try TemporaryDirectory()
        let push = try BuiltBinary.slippers.start(["push"] + db, outputDirectory: output.url)
        switch moment {
        case .beforeSending:
            await server.waitForRequests(1)
        case .whileTheServerHoldsTheAnswer:
            for _ in 0..<2_000 where server.appliedWrites == 0 { try await Task.sleep(for: .milliseconds(5)) }
        case .afterTheAnswer:
            for _ in 0..<2_000 where server.appliedWrites == 0 { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(450))
        }
        Foundation.kill(push.processIdentifier, SIGKILL)
        await BuiltBinary.waitForExit(of: push)
        server.release()
        // A POST the server held before its handler ran is applied once released: wait for it.
        let posted = edit.contains("--insert")
        for _ in 0..<2_000 where posted && server.appliedWrites == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(500))

        let again = try await BuiltBinary.slippers.run(["push"] + db)
        let name = "\(moment) \(Self.servers[index].name)"
        #expect(again.status == 0, "\(name): \(again.stderr)")
        // Killed after the answer, the first push may have recorded it: then the second has nothing to send.
        if moment != .afterTheAnswer {
            #expect(again.stdout.contains("pushed: 1 acknowledged"), "\(name): \(again.stdout)")
        }
        #expect(server.appliedWrites == 1, "\(name)")
        #expect(try SQLiteCache(path: db[1], mode: .readOnly).pendingWrites().isEmpty, "\(name)")
        return again
    }

    @Test(arguments: cases)
    func aChangeIsAppliedOnceWhereverThePushIsKilled(moment: Moment, server index: Int) async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            _ = try await killedThenPushedAgain(
                ["12", "--set", #"{"title": "Once"}"#], moment: moment, server: index, fixture: fixture, db: db)
            let get = try await BuiltBinary.slippers.run(["get", fixture.url(), "12"] + db)
            #expect(get.stdout.contains(#""title":"Once""#), "\(get.stdout)")
        }
    }

    @Test(arguments: cases)
    func anInsertIsCreatedOnceWhereverThePushIsKilled(moment: Moment, server index: Int) async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            _ = try await killedThenPushedAgain(
                ["new-1", "--insert", #"{"title": "Made offline"}"#], moment: moment, server: index,
                fixture: fixture, db: db)
            // Filed under the id the server gave it, with no provisional id posted.
            let get = try await BuiltBinary.slippers.run(["get", fixture.url(), "31"] + db)
            #expect(get.stdout.contains("Made offline"), "\(get.stdout)")
            let posts = fixture.server.requests.filter { $0.method == "POST" }
            #expect(posts.allSatisfy { !String(decoding: $0.body, as: UTF8.self).contains("new-1") })
        }
    }

    @Test func anInsertIsCreatedOnceWhenKilledOnAServerThatListsItsWriteOnlyReferenceNested() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
            // Its create takes `author_id`, and its list shows `author: {"id", "name"}` instead.
            var writes = Self.servers.first { $0.name == "ignoring" }?.writes ?? .init()
            writes.authorReference = "author_id"
            // Held long enough that the kill lands before the answer even on a loaded machine.
            writes.answerDelay = .seconds(10)
            fixture.server.setWrites(writes)
            let edit = try await BuiltBinary.slippers.run(
                ["edit", url, "new-1", "--insert", #"{"title": "Made offline", "author_id": 7}"#] + db)
            #expect(edit.status == 0, "\(edit.stderr)")
            let output = try TemporaryDirectory()
            let push = try BuiltBinary.slippers.start(["push"] + db, outputDirectory: output.url)
            for _ in 0..<2_000 where fixture.server.appliedWrites == 0 { try await Task.sleep(for: .milliseconds(5)) }
            Foundation.kill(push.processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: push)
            #expect(fixture.server.appliedWrites == 1)

            let again = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("pushed: 1 acknowledged"), "\(again.stdout)")
            #expect(fixture.server.appliedWrites == 1)
            #expect(try SQLiteCache(path: db[1], mode: .readOnly).pendingWrites().isEmpty)
            let get = try await BuiltBinary.slippers.run(["get", url, "31"] + db)
            #expect(get.stdout.contains(#""author":{"id":7"#), "\(get.stdout)")
        }
    }

    @Test func aServerChangeIsNotOverwrittenOnAServerThatIgnoresIfMatch() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
            fixture.server.setWrites(Self.servers.first { $0.name == "ignoring" }?.writes ?? .init())
            #expect(
                try await BuiltBinary.slippers.run(["edit", url, "7", "--set", #"{"title": "Mine"}"#] + db).status == 0)
            _ = fixture.server.update(id: 7, title: "Theirs")

            let push = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(push.status == 0, "\(push.stderr)")
            #expect(push.stdout.contains("0 acknowledged, 0 failed, 1 conflicts (server won)"), "\(push.stdout)")
            #expect(fixture.server.appliedWrites == 0)
            let get = try await BuiltBinary.slippers.run(["get", url, "7"] + db)
            #expect(get.stdout.contains(#""title":"Theirs""#), "\(get.stdout)")
        }
    }

    @Test func aServerThatRequiresIfMatchGetsTheVersionItsItemShows() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
            var writes = FixtureServer.Configuration.Writes()
            writes.requiresIfMatch = true
            fixture.server.setWrites(writes)
            for id in [3, 4] {
                let edit = try await BuiltBinary.slippers.run(
                    ["edit", url, String(id), "--set", #"{"title": "New"}"#] + db)
                #expect(edit.status == 0)
            }
            let push = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(push.status == 0, "\(push.stderr)")
            #expect(push.stdout.contains("2 acknowledged, 0 failed, 0 conflicts"), "\(push.stdout)")
            #expect(fixture.server.appliedWrites == 2)
            let patches = fixture.server.requests.filter { $0.method == "PATCH" }
            #expect(patches.allSatisfy { $0.headers["If-Match"]?.hasPrefix("\"") == true })

            // With --conflict client, a change made over an older copy is sent over the server's version, and said so.
            #expect(
                try await BuiltBinary.slippers.run(["edit", url, "5", "--set", #"{"title": "Mine"}"#] + db).status == 0)
            _ = fixture.server.update(id: 5, title: "Theirs")
            let client = try await BuiltBinary.slippers.run(["push", "--conflict", "client"] + db)
            #expect(client.status == 0, "\(client.stderr)")
            #expect(client.stdout.contains("1 acknowledged, 0 failed, 1 conflicts (client won)"), "\(client.stdout)")
            let get = try await BuiltBinary.slippers.run(["get", url, "5"] + db)
            #expect(get.stdout.contains(#""title":"Mine""#), "\(get.stdout)")
        }
    }

    @Test func aGuessedItemURLThatIsNotFoundFailsAtOnceNamingItemURL() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            // A list at /page/ whose items live at /page/{id}, as Flask routes them.
            let url = fixture.server.url(path: "/page/").absoluteString
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
            var writes = FixtureServer.Configuration.Writes()
            writes.acceptsTrailingSlash = false
            fixture.server.setWrites(writes)
            for id in 1...7 {
                let edit = try await BuiltBinary.slippers.run(
                    ["edit", url, String(id), "--set", #"{"title": "x"}"#] + db)
                #expect(edit.status == 0)
            }
            let push = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(push.status == 1)
            let lines = push.stderrLines
            #expect(lines.count == 6, "\(push.stderr)")
            #expect(lines.first?.contains("write 1 (page 1) failed: HTTP 404") == true, "\(push.stderr)")
            #expect(lines.first?.contains("--item-url") == true)
            #expect(lines.last == "slippers: and 2 more: slippers outbox")
            #expect(fixture.server.requests.filter { $0.method == "PATCH" }.isEmpty)
        }
    }
}
