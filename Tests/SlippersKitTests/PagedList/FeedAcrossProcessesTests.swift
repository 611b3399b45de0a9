import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

@testable import SlippersKit

/// A feed app in real processes, one after the other, over one cache file: what one launch read,
/// refreshed or opened, the next one shows, offline too.
@Suite(.timeLimit(.minutes(3))) struct FeedAcrossProcessesTests {
    /// Runs the feed app with `arguments` and returns the lines it printed.
    private func app(_ path: String, _ url: URL, _ arguments: String...) async throws -> [String] {
        let (status, lines) = try await blocking {
            try Process.runBuiltSibling("FeedApp", [path, url.absoluteString] + arguments)
        }
        #expect(status == 0)
        return lines
    }

    private func ids(_ numbers: ClosedRange<Int>) -> [String] { numbers.reversed().map(FeedPosts.id) }

    @Test func aBurstAGapAndAnOpenedItemSurviveEachLaunchAndFillInTheNext() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let server = FixtureServer()
        try await server.start()
        let posts = FeedPosts(1_000)
        server.serveMastodonTimeline(posts: posts)
        let url = server.url(path: "/api/v1/timelines/home")

        // Launch 1 reads 200 posts.
        let read = try await app(path, url, "read", "200")
        #expect(read == ids(801...1_000))
        // Its server pages by the id of the last post, newest first: the list is recorded as a feed.
        let store = try SQLiteCache(path: path)
        let key = try #require(try store.lists().first?.key)
        #expect(try store.newestFirst(key) == true)
        try store.close()

        // Launch 2 pulls to refresh after a burst of 500: the new page, a gap, then what was read.
        posts.post(500)
        let refreshed = try await app(path, url, "refresh")
        // The new page and the first page read before it, as a relaunched window shows them.
        #expect(refreshed == ids(1_481...1_500) + ["gap"] + ids(981...1_000))

        // Launch 3, offline: the same rows and the same gap.
        server.inject(.status(503), count: 1_000)
        let offline = try await app(path, url, "show")
        #expect(Array(offline.prefix(41)) == refreshed)
        #expect(offline.last?.hasPrefix("error: ") == true, "\(offline.suffix(2))")

        // Launch 4, online: a deep link to post 300, far below what is cached.
        server.clearFaults()
        let opened = try await app(path, url, "open", FeedPosts.id(300))
        #expect(opened.last == "opened: \(FeedPosts.id(300))")
        #expect(opened.contains(FeedPosts.id(300)))
        #expect(opened.filter { $0 == "gap" }.count == 2)

        // Launch 5 fills every gap and reads to the end: every post, once, in order.
        let filled = try await app(path, url, "fill")
        #expect(!filled.contains("gap"))
        let items = filled.filter { !$0.hasPrefix("opened") && !$0.hasPrefix("error") }
        let mismatch = zip(items, ids(1...1_500)).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            items.count == 1_500 && mismatch == nil,
            "\(items.count) rows, first mismatch at \(String(describing: mismatch))")
        await server.stop()
    }

    @Test func aSignedInTimelineStaysOfflineAndAMisdeclaredModelSaysWhyInTheNextLaunch() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        let server = FixtureServer()
        try await server.start()
        server.serveMastodonTimeline(posts: FeedPosts(100))
        let url = server.url(path: "/api/v1/timelines/home")

        // Mastodon answers a signed-in timeline `private, no-store`: the account's list keeps it all the same.
        let online = try await app(path, url, "read", "40", "--token", "ann-token")
        #expect(online.prefix(40) == ArraySlice(ids(61...100)))
        server.inject(.status(503), count: 1_000)
        let offline = try await app(path, url, "read", "40", "--token", "ann-token")
        #expect(offline.prefix(40) == ArraySlice(ids(61...100)))
        #expect(offline.last?.hasPrefix("error: ") == true)

        // A model whose ids are numbers, on a server whose ids are strings: no rows, and why.
        server.clearFaults()
        let other = try TemporaryDirectory()
        let misdeclared = try await app(other.path(), url, "misdeclared")
        #expect(misdeclared.first == "items: 0")
        #expect(misdeclared.last?.contains("does not decode as Misdeclared: `id`") == true, "\(misdeclared)")
        await server.stop()
    }
}
