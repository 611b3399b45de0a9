import Foundation
import LocalAPI
import SlippersSQLite
import SlippersTestSupport
import Testing

/// A list is never "complete" short of the total its server announced, and a list whose first
/// response shows that it pages is never taken for one page.
@Suite struct SyncIncompleteTests {
    private static func items(_ ids: ClosedRange<Int>) -> String {
        "[" + ids.map { #"{"id":\#($0),"title":"Item \#($0)"}"# }.joined(separator: ",") + "]"
    }

    @Test func aWalkShortOfTheAnnouncedTotalExitsThreeAndStaysIncomplete() async throws {
        try await RunningFixture.with { fixture in
            // A server that announces 25 items and ends its list after 10.
            fixture.server.script("/short") { _ in
                .json(#"{"count": 25, "next": null, "previous": null, "results": \#(Self.items(1...10))}"#)
            }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/short").absoluteString
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 3, "\(outcome.stderr)")
            #expect(outcome.stderrLines.count == 1)
            #expect(
                outcome.stderr.hasPrefix("slippers: incomplete: \(url) announced 25 items and 10 items are stored"),
                "\(outcome.stderr)")
            #expect(outcome.stderr.contains("most likely"))
            #expect(outcome.stderr.contains("--refresh"))

            let table = try await BuiltBinary.slippers.run(["lists", "--db", directory.path()])
            #expect(table.stdout.contains("INCOMPLETE"), "\(table.stdout)")
            let json = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
            #expect(json.stdout.contains(#""incomplete" : true"#), "\(json.stdout)")
            let doctor = try await BuiltBinary.slippers.run(["doctor", "--db", directory.path()])
            #expect(doctor.status == 1)
            #expect(doctor.stdout.contains("INCOMPLETE \(url): 10 of 25 items announced"), "\(doctor.stdout)")

            // A rerun fetches nothing and says the same.
            let again = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(again.status == 3)
            #expect(again.stdout.isEmpty)
        }
    }

    @Test func theAnnouncedTotalOfAHeaderCountsToo() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/bare") { _ in .json(Self.items(1...7), headers: ["X-Total-Count": "9"]) }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/bare").absoluteString
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--style", "singlePage", "--db", directory.path(),
            ])
            #expect(outcome.status == 3, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("announced 9 items and 7 items are stored"), "\(outcome.stderr)")
        }
    }

    @Test func aWalkShortOfTheAnnouncedPagesExitsThree() async throws {
        try await RunningFixture.with { fixture in
            // Three pages announced, and page 2 comes back empty.
            fixture.server.script("/classic") { request in
                let page = Int(request.query["current_page"] ?? "1") ?? 1
                let items = page == 1 ? Self.items(1...10) : "[]"
                return .json(#"{"items": \#(items), "page_size": 10, "current_page": \#(page), "total_pages": 3}"#)
            }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/classic").absoluteString
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 3, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("announced 3 pages and 2 pages (10 items) are stored"), "\(outcome.stderr)")
            // Kept with the list: at least 21 items (2 full pages of 10 and one more), 10 stored.
            let table = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
            #expect(table.stdout.contains(#""incomplete" : true"#), "\(table.stdout)")
            let doctor = try await BuiltBinary.slippers.run(["doctor", "--db", directory.path()])
            #expect(doctor.status == 1)
        }
    }

    @Test func aListThatShowsItPagesIsNeverTakenForOnePage() async throws {
        try await RunningFixture.with { fixture in
            // A total and a cursor in the body, and a server that answers every request with page 1.
            fixture.server.script("/stuck") { _ in
                .json(#"{"items": \#(Self.items(1...10)), "count": 40}"#)
            }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/stuck").absoluteString
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 1, "\(outcome.stdout)")
            #expect(outcome.stderrLines.count == 1)
            #expect(outcome.stderr.contains("repeated page 1, yet its first response pages (count in the body)"))
            #expect(outcome.stderr.contains("--page-param NAME, --cursor-path PATH --cursor-param NAME"))
            let lists = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
            #expect(!lists.stdout.contains(#""end_reached" : true"#), "\(lists.stdout)")
        }
    }

    @Test func aFirstPageShorterThanAskedWithALargerTotalIsNotTheEnd() async throws {
        try await RunningFixture.with { fixture in
            // A server that serves 10 a page whatever it is asked, and says how many there are.
            fixture.server.script("/fixed") { request in
                let page = Int(request.query["page"] ?? "1") ?? 1
                let first = (page - 1) * 10 + 1
                let items = Self.items(first...min(35, first + 9))
                return .json(#"{"page": \#(page), "total_results": 35, "per_page": 10, "results": \#(items)}"#)
            }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/fixed").absoluteString
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--page-size", "20", "--concurrency", "1", "--no-reverse-read", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 35 items in 4 pages"), "\(outcome.stdout)")
            // The first request detects the list as the URL is; every page is then asked for with the size.
            #expect(fixture.server.requests.dropFirst().allSatisfy { $0.query["per_page"] == "20" })
            #expect(fixture.server.requestCount == 5)
        }
    }

    @Test func aNumberCursorInTheBodyIsFollowed() async throws {
        try await RunningFixture.with(itemCount: 1234, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.litestarCursor)
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 1234 items in 25 pages"), "\(outcome.stdout)")
            #expect(fixture.server.requestCount == 25)
        }
    }
}
