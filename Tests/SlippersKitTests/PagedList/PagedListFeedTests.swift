import Foundation
import LocalAPI
import SlippersKit
import SlippersTestSupport
import Testing

/// A status of a timeline as Mastodon's API documents it: string ids (snowflakes), newest first.
private struct Status: Codable, Identifiable, CacheIdentifiable, Sendable, Equatable {
    let id: ID<Status>
    let content: String
}

/// A model whose `id` is declared as a number, for a server whose ids are strings.
private struct Misdeclared: Codable, Identifiable, CacheIdentifiable, Sendable {
    let id: Int
    let content: String
}

/// A home timeline served as Mastodon documents it: 20 statuses a page, newest first, string
/// ids, `max_id` for older ones, a `Link` header with `rel="next"`, and, for an authenticated
/// call, `Cache-Control: private, no-store`.
private func serveTimeline(on server: FixtureServer, count: Int, privateToEveryone: Bool = false) {
    let ids = (1...count).reversed().map { String(109_000_000_000_000_000 + $0) }
    let base = server.url(path: "/api/v1/timelines/home").absoluteString
    server.script("/api/v1/timelines/home") { request in
        let start = request.query["max_id"].flatMap { maxID in ids.firstIndex(of: maxID).map { $0 + 1 } } ?? 0
        let page = Array(ids[min(start, ids.count)..<min(start + 20, ids.count)])
        let body = "[" + page.map { #"{"id": "\#($0)", "content": "status \#($0)"}"# }.joined(separator: ",") + "]"
        let isPrivate = privateToEveryone || request.authorization != nil
        var headers = ["Cache-Control": isPrivate ? "private, no-store" : "max-age=0"]
        if let last = page.last, start + 20 < ids.count {
            headers["Link"] = #"<\#(base)?max_id=\#(last)>; rel="next", <\#(base)?min_id=\#(page[0])>; rel="prev""#
        }
        return .json(body, headers: headers)
    }
}

@Suite(.timeLimit(.minutes(2))) @MainActor struct PagedListFeedTests {
    private func scroll<Item>(_ list: PagedList<Item>) async {
        var reported = 0
        for _ in 0..<200 where list.items.count > reported || list.isLoading {
            if list.items.count > reported {
                reported = list.items.count
                list.rowAppeared(at: reported - 1)
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func aTimelineOfStringIDsPagesByItsLinkHeaderToTheEnd() async throws {
        let fixture = try await Fixture()
        serveTimeline(on: fixture.server, count: 50)
        let list = PagedList<Status>(
            url: fixture.server.url(path: "/api/v1/timelines/home"), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { !list.isRefreshing }
        #expect(list.refreshError == nil, "\(String(describing: list.refreshError))")
        #expect(list.items.count == 20)
        #expect(list.items.first?.id == "109000000000000050")
        await scroll(list)
        await waitUntil { list.endReached || list.appendError != nil }
        #expect(list.items.count == 50)
        #expect(list.items.last?.id == ID<Status>("109000000000000001"))
        await fixture.server.stop()
    }

    @Test func aPageThatDoesNotDecodeIsAnErrorNamingTheItemAndTheMember() async throws {
        let fixture = try await Fixture()
        serveTimeline(on: fixture.server, count: 50)
        let list = PagedList<Misdeclared>(
            url: fixture.server.url(path: "/api/v1/timelines/home"), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { !list.isRefreshing }
        #expect(list.items.isEmpty)
        let error = try #require(list.refreshError as? PagerError)
        #expect(error.code == .itemsDoNotDecode)
        #expect(error.itemIndex == 0)
        #expect(error.member == "id")
        #expect("\(error)".hasPrefix("item 0 of page 0 does not decode as Misdeclared: `id`: "), "\(error)")
        await fixture.server.stop()
    }

    @Test func anAccountsPrivateTimelineStaysOffline() async throws {
        let fixture = try await Fixture()
        serveTimeline(on: fixture.server, count: 50)
        let url = fixture.server.url(path: "/api/v1/timelines/home")
        let signedIn = HTTPListConfiguration(client: fixture.client, headers: ["Authorization": "Bearer ann"])
        let online = PagedList<Status>(url: url, cache: fixture.store, configuration: signedIn, account: Account("ann"))
        await online.load()
        await waitUntil { online.items.count == 20 && !online.isRefreshing }
        #expect(!online.state.isHeldInMemory)

        fixture.server.inject(.status(503), count: 1_000)
        let offline = PagedList<Status>(
            url: url, cache: fixture.store, configuration: signedIn, account: Account("ann"))
        await offline.load()
        await waitUntil { !offline.isRefreshing }
        #expect(offline.items.count == 20)
        #expect(offline.items.first?.id == "109000000000000050")
        await fixture.server.stop()
    }

    @Test func anAnonymousListOfNoStorePagesSaysItsRowsAreHeldInMemoryOnly() async throws {
        let fixture = try await Fixture()
        serveTimeline(on: fixture.server, count: 50, privateToEveryone: true)
        let list = PagedList<Status>(
            url: fixture.server.url(path: "/api/v1/timelines/home"), cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await list.load()
        await waitUntil { list.items.count == 20 && !list.isRefreshing }
        #expect(list.state.isHeldInMemory)
        await fixture.server.stop()
    }
}
