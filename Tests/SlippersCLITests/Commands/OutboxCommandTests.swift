import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// `edit`, `outbox` and `push`: a change queued against the cache, shown at once, sent once.
@Suite struct OutboxCommandTests {
    @Test func anEditIsShownAtOnceListedInTheOutboxAndPushedOnce() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)

            let edit = try await BuiltBinary.slippers.run(["edit", url, "12", "--set", #"{"title": "Edited"}"#] + db)
            #expect(edit.status == 0, "\(edit.stderr)")
            #expect(
                edit.stdout.contains("pending write 1: PATCH \(fixture.server.url(path: "/page/12"))"), "\(edit.stdout)"
            )
            let delete = try await BuiltBinary.slippers.run(["edit", url, "13", "--delete"] + db)
            #expect(delete.status == 0, "\(delete.stderr)")

            // The change is in every read at once, before any request.
            let get = try await BuiltBinary.slippers.run(["get", url, "12"] + db)
            #expect(get.stdout.contains(#""title":"Edited""#), "\(get.stdout)")
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + db)
            #expect(try exportedIDs(export.stdout) == Array(1...12) + Array(14...30))
            let outbox = try await BuiltBinary.slippers.run(["outbox", "--json"] + db)
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(outbox.stdout.utf8)) as? [[String: Any]])
            #expect(entries.map { $0["method"] as? String } == ["PATCH", "DELETE"])
            #expect(entries.allSatisfy { $0["state"] as? String == "pending" })
            fixture.server.resetRequests()

            // The list was synced without credentials: its writes are the anonymous account's, sent with a token.
            let push = try await BuiltBinary.slippers.run(
                ["push", "--account", "anonymous", "--header", "Authorization: Bearer s3cret"] + db)
            #expect(push.status == 0, "\(push.stderr)")
            #expect(push.stdout.contains("pushed: 2 acknowledged, 0 failed"), "\(push.stdout)")
            #expect(fixture.server.appliedWrites == 2)
            #expect(fixture.server.requests.allSatisfy { $0.authorization == "Bearer s3cret" })
            let empty = try await BuiltBinary.slippers.run(["outbox", "--json"] + db)
            #expect((try JSONSerialization.jsonObject(with: Data(empty.stdout.utf8)) as? [Any])?.isEmpty == true)
            // A second push sends nothing.
            let again = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(again.stdout.contains("pushed: 0 acknowledged"))
            #expect(fixture.server.appliedWrites == 2)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.path()))
            #expect(bytes.range(of: Data("s3cret".utf8)) == nil)
        }
    }

    @Test func aNewItemIsListedAtOnceWhereAskedAndTakesTheServersIDWhenPushed() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)

            let first = try await BuiltBinary.slippers.run(
                ["edit", url, "new-1", "--insert", #"{"title": "New"}"#] + db)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stdout.contains("pending write 1: POST \(fixture.server.url(path: "/page"))"), "\(first.stdout)")
            let last = try await BuiltBinary.slippers.run(
                ["edit", url, "--insert", #"{"title": "Newer"}"#, "--at", "last"] + db + ["--", "-2"])
            #expect(last.status == 0, "\(last.stderr)")
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + db)
            // A string id reads as -1 here.
            let ids = try exportedIDs(export.stdout)
            #expect(ids == [-1] + Array(1...30) + [-2], "\(ids)")
            #expect(export.stdout.hasPrefix(#"{"id":"new-1""#), "\(export.stdout)")

            let push = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(push.stdout.contains("pushed: 2 acknowledged, 0 failed"), "\(push.stdout)")
            #expect(fixture.server.appliedWrites == 2)
            let after = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + db)
            #expect(try exportedIDs(after.stdout) == [31] + Array(1...30) + [32])
            let bad = try await BuiltBinary.slippers.run(["edit", url, "new-3", "--insert", "[1]"] + db)
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("--insert must be a JSON object"), "\(bad.stderr)")
        }
    }

    @Test func aRefusedWriteIsListedWithTheServersReasonAndCanBeDropped() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
            let long = String(repeating: "x", count: 300)
            #expect(
                try await BuiltBinary.slippers.run(["edit", url, "2", "--set", #"{"title": "\#(long)"}"#] + db).status
                    == 0)
            let push = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(push.status == 1)
            #expect(push.stdout.contains("1 failed"))
            let outbox = try await BuiltBinary.slippers.run(["outbox"] + db)
            #expect(outbox.stdout.contains("failed"))
            #expect(outbox.stdout.contains("HTTP 400"), "\(outbox.stdout)")
            let drop = try await BuiltBinary.slippers.run(["outbox", "drop", "1"] + db)
            #expect(drop.status == 0, "\(drop.stderr)")
            let get = try await BuiltBinary.slippers.run(["get", url, "2"] + db)
            #expect(!get.stdout.contains(long))
            let missing = try await BuiltBinary.slippers.run(["outbox", "retry", "1"] + db)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("No write 1 in the outbox"), "\(missing.stderr)")
        }
    }

    @Test func aPushToAServerThatIsDownSaysSoInOneLineAndKeepsTheWrite() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
            #expect(
                try await BuiltBinary.slippers.run(["edit", url, "3", "--set", #"{"title": "later"}"#] + db).status == 0
            )
            await fixture.server.stop()
            let push = try await BuiltBinary.slippers.run(["push", "--retries", "0"] + db)
            #expect(push.status == 1)
            let lines = push.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(push.stderr)")
            #expect(push.stderr.contains("push stopped: Cannot connect"), "\(push.stderr)")
            #expect(push.stderr.contains("1 write stays in the outbox"))
        }
    }

    @Test(arguments: [
        (["--set", "{}", "--delete"], "Give one of --set JSON, --replace JSON, --delete or --insert JSON."),
        (["--set", "[1]"], "Invalid JSON: a merge patch is a JSON object"),
        (
            ["--set", "{}", "--item-url", "https://x.example/items"],
            "--item-url must be an http or https URL with {id}"
        ),
    ])
    func badEditsAreRefused(arguments: [String], message: String) async throws {
        try await RunningFixture.with(itemCount: 10, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            #expect(try await BuiltBinary.slippers.run(["sync", fixture.url()] + db).status == 0)
            let edit = try await BuiltBinary.slippers.run(["edit", fixture.url(), "1"] + arguments + db)
            #expect(edit.status != 0)
            #expect(edit.stderr.contains(message), "\(edit.stderr)")
        }
    }

    @Test func anItemURLGivenOnceIsTheListsForItsLaterEdits() async throws {
        try await RunningFixture.with(itemCount: 10, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)
            let template = fixture.server.url(path: "/drf").absoluteString + "/{id}/"
            let first = try await BuiltBinary.slippers.run(
                ["edit", url, "1", "--set", #"{"title": "a"}"#, "--item-url", template] + db)
            #expect(first.stdout.contains("PATCH \(fixture.server.url(path: "/drf/1/"))"), "\(first.stdout)")
            let second = try await BuiltBinary.slippers.run(["edit", url, "2", "--set", #"{"title": "b"}"#] + db)
            #expect(second.stdout.contains("PATCH \(fixture.server.url(path: "/drf/2/"))"), "\(second.stdout)")
            let push = try await BuiltBinary.slippers.run(["push"] + db)
            #expect(push.stdout.contains("pushed: 2 acknowledged"), "\(push.stdout) \(push.stderr)")
        }
    }
}
