import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// `sync` killed with SIGKILL mid-list, then run again.
///
/// One page at a time, so that holding the server's answers stops the run at a known point;
/// `SyncConcurrencyTests` kills concurrent runs.
@Suite struct SyncResumeTests {
    @Test func aKilledSyncResumesAfterItsLastCommittedPageAndEndsWithEveryItemOnce() async throws {
        let itemCount = 3_000
        try await RunningFixture.with(itemCount: itemCount, pageSize: 50) { fixture in
            // Slow answers, so that the kill lands in the middle of the list.
            fixture.server.inject(.delay(.milliseconds(40)), count: 10_000)
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let url = fixture.url()
            // The fifth request from now on waits for the release: the run cannot reach the end before the kill.
            fixture.server.hold(fromRequest: fixture.server.requestCount + 5)
            let output = try TemporaryDirectory()
            let first = try BuiltBinary.slippers.start(
                ["sync", url, "--db", path, "--concurrency", "1"], outputDirectory: output.url)

            // Watch the file read-only, as another process would, until two pages are committed.
            var watched = 0
            for _ in 0..<3_000 where watched < 2 {
                watched = (try? SQLiteCache(path: path, mode: .readOnly).list(url)?.currentPageCount) ?? 0
                if watched < 2 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(watched >= 2)
            kill(first.processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: first)
            #expect(first.terminationReason == .uncaughtSignal)
            fixture.server.release()

            let killed = try #require(try SQLiteCache(path: path, mode: .readOnly).list(url))
            let committed = killed.currentPageCount
            #expect(committed >= 2)
            #expect(!killed.endReached)
            let requestsOfFirstRun = fixture.server.requestCount

            // Not read again from its end: every request of the run is one of the walk's.
            let second = try await BuiltBinary.slippers.run([
                "sync", url, "--db", path, "--concurrency", "1", "--no-reverse-read",
            ])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("(resumed after \(committed) cached pages)"))
            #expect(second.stdout.contains("end reached, \(itemCount) items cached"))

            // Page numbers start at 1: the committed pages are 1…committed. None is asked for again,
            // and the second run does not fetch the first page to detect the style either. The
            // request the first run had in flight, and the one it asked for while saving, may reach the
            // server late, so the pages after committed, which it never committed, may be counted twice.
            let afterKill = fixture.server.requests.dropFirst(requestsOfFirstRun)
            let pages = afterKill.map { Int($0.query["page"] ?? "") ?? 0 }
            #expect(pages.allSatisfy { $0 > committed })
            let fetches = Dictionary(grouping: pages) { $0 }.mapValues(\.count)
            #expect(fetches.keys.sorted() == Array((committed + 1)...(itemCount / 50)))
            #expect(fetches.filter { $0.value > 1 }.keys.allSatisfy { $0 <= committed + 7 })

            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson", "--db", path])
            let ids = try exportedIDs(export.stdout)
            #expect(ids.count == itemCount)
            #expect(ids == Array(1...itemCount))
        }
    }

    @Test func aKilledGraphQLSyncResumesFromItsCursorWithoutAskingForASavedPage() async throws {
        let itemCount = 1_000
        try await RunningFixture.with(itemCount: itemCount, pageSize: 50) { fixture in
            fixture.server.inject(.delay(.milliseconds(40)), count: 10_000)
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let url = fixture.server.url(.graphql).absoluteString
            let query =
                "query($first: Int!, $after: String) { posts(first: $first, after: $after) "
                + "{ edges { node { id title } } pageInfo { hasNextPage endCursor } } }"
            // One page at a time: its cursors say where they point, and pages read ahead (the last one
            // first) would take the request numbers the hold below counts on.
            let arguments = ["sync", url, "--graphql", query, "--page-size", "50", "--db", path, "--concurrency", "1"]
            // The fifth request from now on waits for the release: the run cannot reach the end before the kill.
            fixture.server.hold(fromRequest: fixture.server.requestCount + 5)
            let output = try TemporaryDirectory()
            let first = try BuiltBinary.slippers.start(arguments, outputDirectory: output.url)
            var key: String?
            for _ in 0..<3_000 where key == nil {
                key =
                    (try? SQLiteCache(path: path, mode: .readOnly).lists())?
                    .first { $0.currentPageCount >= 2 }?.key
                if key == nil { try await Task.sleep(for: .milliseconds(10)) }
            }
            kill(first.processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: first)
            fixture.server.release()
            let list = try #require(key)
            let committed = try #require(try SQLiteCache(path: path, mode: .readOnly).list(list))
                .currentPageCount
            let requestsOfFirstRun = fixture.server.requestCount

            let second = try await BuiltBinary.slippers.run(arguments)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("(resumed after \(committed) cached pages)"), "\(second.stdout)")
            // The second run starts after the last committed page's end cursor: no saved page again.
            let afterKill = fixture.server.requests.dropFirst(requestsOfFirstRun).compactMap(\.jsonBody)
            let starts = afterKill.compactMap { body -> Int? in
                guard let after = (body["variables"] as? [String: Any])?["after"] as? String,
                    let decoded = Data(base64Encoded: after)
                else { return nil }
                return Int(String(decoding: decoded, as: UTF8.self).dropFirst("arrayconnection:".count)).map { $0 + 1 }
            }
            #expect(starts.count == afterKill.count)
            #expect(starts.allSatisfy { $0 >= committed * 50 })
            let export = try await BuiltBinary.slippers.run([
                "export", list, "--format", "ndjson", "--db", path,
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
        }
    }
}
