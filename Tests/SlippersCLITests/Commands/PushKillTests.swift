import Foundation
import Slippers
import SlippersFixtures
import SlippersStore
import SlippersTestSupport
import Testing

/// `slippers push` killed with SIGKILL while the server holds its answer: the write stays in the
/// outbox, and the next push sends it again with its key, so the server applies it once.
@Suite struct PushKillTests {
    @Test func aPushKilledBeforeTheAnswerSendsTheWriteAgainWithItsKeyAndItIsAppliedOnce() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
            let edit = try await BuiltBinary.slippers.run(["edit", url, "12", "--set", #"{"title": "Once"}"#] + db)
            #expect(edit.status == 0, "\(edit.stderr)")
            fixture.server.resetRequests()

            // The server receives the write and holds its answer; the push is killed meanwhile.
            fixture.server.hold()
            let output = try TemporaryDirectory()
            let push = try BuiltBinary.slippers.start(["push"] + db, outputDirectory: output.url)
            await fixture.server.waitForRequests(1)
            kill(push.processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: push)
            #expect(push.terminationReason == .uncaughtSignal)
            // Released, the server applies the write the killed process sent.
            fixture.server.release()
            for _ in 0..<2_000 where fixture.server.appliedWrites == 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(fixture.server.appliedWrites == 1)

            let pending = try CacheStore(path: directory.path(), mode: .readOnly).pendingWrites()
            #expect(pending.map(\.state) == [PendingWrite.State.pending])
            let again = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("pushed: 1 acknowledged"), "\(again.stdout)")
            #expect(fixture.server.appliedWrites == 1)
            let keys = fixture.server.requests.map { $0.headers["Idempotency-Key"] }
            #expect(keys.count == 2)
            #expect(Set(keys).count == 1)
            #expect(keys.first??.isEmpty == false)
            let get = try await BuiltBinary.slippers.run(["get", url, "12"] + db)
            #expect(get.stdout.contains(#""title":"Once""#), "\(get.stdout)")
        }
    }
}
