import Foundation
import LocalAPI
import SlippersSQLite
import SlippersTestSupport
import Testing

/// Lists that do not page: a bare array that ignores every parameter, a `null` next, `--style singlePage`.
@Suite struct SyncOnePageTests {
    /// A bare array of `count` posts, whatever the query, as JSONPlaceholder's `/posts` answers.
    private static func wholeList(_ count: Int) -> String {
        "[" + (1...count).map { #"{"id":\#($0),"title":"Post \#($0)"}"# }.joined(separator: ",") + "]"
    }

    @Test func aGuessedListWhosePageTwoRepeatsPageOneIsOnePage() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/posts") { _ in .json(Self.wholeList(100)) }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/posts").absoluteString
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("synced 100 items in 1 page of "), "\(outcome.stdout)")
            #expect(
                outcome.stdout.hasSuffix(
                    "end reached, 100 items cached; page 2 repeated page 1 exactly, so the list is one page "
                        + "(as --style singlePage)\n"))
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            let list = try #require(try store.lists().first)
            #expect(list.endReached)
            #expect(list.pageCount == 1)
            #expect(list.style?.contains("singlePage") == true, "\(list.style ?? "")")
            try store.close()

            fixture.server.resetRequests()
            let again = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(again.status == 0)
            #expect(again.stdout.contains("is complete"))
            #expect(fixture.server.requestCount == 0)

            // Filed as one page: a refresh asks once.
            let refreshed = try await BuiltBinary.slippers.run(["sync", url, "--refresh", "--db", directory.path()])
            #expect(refreshed.status == 0, "\(refreshed.stderr)")
            #expect(refreshed.stdout.hasPrefix("synced 100 items in 1 page of "), "\(refreshed.stdout)")
            #expect(fixture.server.requestCount == 1)
        }
    }

    @Test func aNullNextIsTheListsOnlyPage() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/all") { _ in .json(#"{"results": \#(Self.wholeList(30)), "next": null}"#) }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/all").absoluteString
            let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("synced 30 items in 1 page of "), "\(outcome.stdout)")
            #expect(outcome.stdout.hasSuffix("end reached, 30 items cached\n"))
            #expect(fixture.server.requestCount == 1)

            let detect = try await BuiltBinary.slippers.run(["detect", url])
            #expect(detect.status == 0)
            #expect(detect.stdout.contains("a null next and nothing else that pages"), "\(detect.stdout)")
        }
    }

    @Test func styleNoneAsksOnceAndDetectSaysItWouldGuess() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/posts") { _ in .json(Self.wholeList(100)) }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/posts").absoluteString
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--style", "singlePage", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("synced 100 items in 1 page of "), "\(outcome.stdout)")
            #expect(outcome.stdout.hasSuffix("end reached, 100 items cached\n"))
            #expect(fixture.server.requestCount == 1)

            let detect = try await BuiltBinary.slippers.run(["detect", url])
            #expect(detect.status == 0)
            #expect(detect.stdout.contains("repeating page 1"), "\(detect.stdout)")

            let sized = try await BuiltBinary.slippers.run([
                "sync", url, "--style", "singlePage", "--page-size", "10", "--db", directory.path(),
            ])
            #expect(sized.status == 64)
        }
    }

    @Test func aGivenStyleWhosePageTwoRepeatsPageOneStillFails() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/posts") { _ in .json(Self.wholeList(100)) }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/posts").absoluteString
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--style", "pageNumber", "--db", directory.path(),
            ])
            #expect(outcome.status == 1)
            #expect(outcome.stderrLines.count == 1)
            #expect(outcome.stderr.contains("same items"), "\(outcome.stderr)")
        }
    }
}
