import Foundation
import LocalAPI
import Slippers
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// Planning a sync: a stored list resumed with its style, a new one detected, overrides applied.
@Suite(.timeLimit(.minutes(2))) struct SyncPlanTests {
    @Test func aStoredListIsResumedWithItsStyleWithoutARequest() async throws {
        let fixture = try await Fixture()
        let url = fixture.server.url(.offset, query: ["limit": "5"])
        let first = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: url, itemType: "Comment")
        try await ListSync(storage: fixture.store, source: first.source, list: first.list).run(
            maxPages: 2)
        fixture.server.resetRequests()

        let again = try await SyncPlan.make(storage: fixture.store, client: fixture.client, url: url)
        #expect(fixture.server.requestCount == 0)
        #expect(again.list == first.list)
        #expect(again.stored?.currentPageCount == 2)
        #expect(again.style == first.style)
        await fixture.server.stop()
    }

    @Test func anotherWayOfPagingAStoredListIsAConflictUnlessItStartsAgain() async throws {
        let fixture = try await Fixture()
        let url = fixture.server.url(.page)
        let plan = try await SyncPlan.make(storage: fixture.store, client: fixture.client, url: url)
        try await ListSync(storage: fixture.store, source: plan.source, list: plan.list).run(
            maxPages: 1)
        let offsets = StyleOverrides(style: .offset())
        await #expect(throws: SyncPlanError.self) {
            try await SyncPlan.make(storage: fixture.store, client: fixture.client, url: url, overrides: offsets)
        }
        let restarted = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: url, overrides: offsets, refresh: true)
        #expect(restarted.style.pageSizeParameter == "limit")
        await fixture.server.stop()
    }

    @Test func overriddenFieldsReadTheDetectingResponseSoTheFirstPageIsFetchedOnce() async throws {
        let fixture = try await Fixture()
        let url = fixture.server.url(.page)
        let overrides = StyleOverrides(itemsPath: "results", idField: "id")
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: url, overrides: overrides)
        let outcome = try await ListSync(storage: fixture.store, source: plan.source, list: plan.list)
            .run()
        #expect(outcome.itemsFetched == 25)
        #expect(fixture.firstPageRequests() == 1)
        await fixture.server.stop()
    }

    @Test func anOverriddenPageSizeFetchesTheFirstPageAgainAtThatSize() async throws {
        let fixture = try await Fixture()
        let url = fixture.server.url(.page)
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: url, overrides: StyleOverrides(pageSize: 5))
        let outcome = try await ListSync(storage: fixture.store, source: plan.source, list: plan.list)
            .run()
        #expect(outcome.itemsFetched == 25)
        #expect(outcome.pagesFetched == 5)
        #expect(fixture.firstPageRequests() == 2)
        await fixture.server.stop()
    }

    @Test func overridesReplaceOnlyWhatWasGiven() {
        let detected = PaginationStyle.pageNumber(pageSize: 20, itemsKeyPath: "results", totalKeyPath: "total")
        #expect(StyleOverrides().applied(to: detected) == detected)

        let offset = StyleOverrides(style: .offset(), pageSize: 10).applied(to: detected)
        #expect(offset.kind == PaginationStyle.offset().kind)
        #expect(offset.pageSizeParameter == "limit")
        #expect(offset.pageSize == 10)
        #expect(offset.itemsKeyPath == "results")
        #expect(offset.totalKeyPath == "total")

        let fields = StyleOverrides(itemsPath: "data.items", idField: "uuid").applied(to: detected)
        #expect(fields.kind == detected.kind)
        #expect(fields.itemsKeyPath == "data.items")
        #expect(fields.idField == "uuid")

        // A page size for a style that names no parameter is not sent under a guessed name.
        let link = StyleOverrides(pageSize: 30).applied(to: PaginationStyle(kind: .linkHeader))
        #expect(link.pageSizeParameter == nil)
        let named = StyleOverrides(pageSize: 30, pageSizeParameter: "page_size").applied(to: link)
        #expect(named.pageSizeParameter == "page_size")
        #expect(named.pageSize == 30)
    }

    @Test func theFirstPageOfANewListIsServedOnceFromTheDetection() async throws {
        let fixture = try await Fixture()
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(.page))
        // Page 1, and page 2 to check the way of asking for it that detection inferred.
        #expect(fixture.server.requestCount == 2)
        let first = try #require(try await plan.source.fetch(.first).page)
        _ = try await plan.source.fetch(PageRequest(token: first.nextToken))
        #expect(fixture.server.requestCount == 2)
        // Served once: a later first-page request (a refresh) asks the server.
        _ = try await plan.source.fetch(.first)
        #expect(fixture.server.requestCount == 3)
        await fixture.server.stop()
    }

    @Test func onlyAPageNumberListReadOnePageAtATimeAndNotNewestFirstIsReadAgainFromItsEnd() throws {
        func plan(_ style: PaginationStyle) throws -> SyncPlan {
            let url = try #require(URL(string: "https://api.example.com/posts"))
            let base = HTTPPageSource(
                client: APIClient(configuration: ServerConfiguration(host: "api.example.com")), url: url, style: style)
            return SyncPlan(
                source: PrimedPageSource(base: base, firstPage: nil),
                list: ListDescriptor(key: url.absoluteString, itemType: "Post"), stored: nil)
        }
        let numbered = try plan(.pageNumber(pageSize: 50))
        #expect(numbered.readsAgainInReverse(concurrency: 1, newestFirst: false))
        #expect(!numbered.readsAgainInReverse(concurrency: 6, newestFirst: false))
        #expect(!numbered.readsAgainInReverse(concurrency: 1, newestFirst: true))
        var drf = PaginationStyle.nextURL(totalKeyPath: "count")
        drf.advancing = PaginationStyle.Advancing(
            parameter: "page", first: 1, step: 1, template: "https://api.example.com/posts?page=2")
        #expect(try plan(drf).readsAgainInReverse(concurrency: 1, newestFirst: false))
        // Offsets ask for the item before each page instead; cursors do not move under a walk.
        drf.advancing?.step = 50
        #expect(try !plan(drf).readsAgainInReverse(concurrency: 1, newestFirst: false))
        #expect(try !plan(.offset(limit: 50)).readsAgainInReverse(concurrency: 1, newestFirst: false))
        #expect(try !plan(.cursor()).readsAgainInReverse(concurrency: 1, newestFirst: false))
    }
}
