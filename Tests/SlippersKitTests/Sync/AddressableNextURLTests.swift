import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// Next URLs and `Link` headers that advance one parameter: named ahead, fetched several at once, no request past the end.
@Suite(.timeLimit(.minutes(2))) struct AddressableNextURLTests {
    /// Plans a sync of `url` and runs it with `concurrency` pages at once, each answer 20 ms away:
    /// returns the most requests that were in flight at once, and the run.
    private func slowSync(
        _ fixture: Fixture, url: URL, concurrency: Int
    ) async throws -> (inFlight: Int, progress: SyncProgress, plan: SyncPlan) {
        let plan = try await SyncPlan.make(storage: fixture.store, client: fixture.client, url: url)
        #expect(plan.style.isAddressable, "\(plan.style)")
        fixture.server.injectRandomly([(.delay(.milliseconds(20)), 1)], seed: 1)
        var sync = ListSync(storage: fixture.store, source: plan.source, list: plan.list)
        let controller = AdaptiveConcurrency(maximum: concurrency)
        sync.concurrency = controller
        let progress = try await sync.run()
        return (controller.snapshot.maxInFlight, progress, plan)
    }

    @Test func aDRFListIsFetchedSeveralPagesAtOnceAndEndsAtItsCount() async throws {
        let fixture = try await Fixture(itemCount: 95, pageSize: 10)
        let (inFlight, progress, plan) = try await slowSync(fixture, url: fixture.server.url(.drf), concurrency: 4)
        #expect(inFlight == 4)
        #expect(plan.style.advancing?.parameter == "page")
        #expect(progress.endReached)
        var ids: [Int] = []
        try fixture.store.forEachItem(in: plan.list.key) { item in
            if case .integer(let id) = item.key { ids.append(id) }
        }
        #expect(ids == Array(1...95))
        // Page 1 once (detected), pages 2 to 10 once each, none past the end.
        let pages = fixture.server.requests.map { Int($0.query["page"] ?? "1") ?? 0 }.sorted()
        #expect(pages == Array(1...10))
        await fixture.server.stop()
    }

    @Test func aLinkHeaderListEndsAtTheLastPageItNames() async throws {
        let fixture = try await Fixture(itemCount: 95, pageSize: 10)
        let url = fixture.server.url(.link, query: ["per_page": "10"])
        let (inFlight, progress, plan) = try await slowSync(fixture, url: url, concurrency: 3)
        #expect(inFlight == 3)
        #expect(progress.endReached)
        #expect(try fixture.store.list(plan.list.key)?.itemCount == 95)
        let pages = fixture.server.requests.map { Int($0.query["page"] ?? "1") ?? 0 }.sorted()
        #expect(pages == Array(1...10))
        await fixture.server.stop()
    }

    @Test func anOffsetNextURLIsNamedByItsOffset() async throws {
        let fixture = try await Fixture(itemCount: 95, pageSize: 10)
        let (inFlight, progress, plan) = try await slowSync(fixture, url: fixture.server.url(.next), concurrency: 2)
        #expect(inFlight == 2)
        #expect(
            plan.style.advancing
                == .init(
                    parameter: "offset", first: 0, step: 10, template: try #require(plan.style.advancing?.template)))
        #expect(progress.endReached)
        let offsets = fixture.server.requests.map { Int($0.query["offset"] ?? "0") ?? -1 }.sorted()
        // Each page after the first is asked for from the item before it: the second alone, then two at once.
        #expect(offsets == [0] + Array(stride(from: 9, to: 94, by: 10)))
        await fixture.server.stop()
    }

    @Test func aNextURLThatBreaksThePatternFallsBackToOnePageAfterAnother() async throws {
        let fixture = try await Fixture(itemCount: 40, pageSize: 10)
        // Page 2 names page 3 under another parameter: the prediction fails, the walk goes on by the URLs given.
        fixture.server.script("/odd") { request in
            let page = Int(request.query["page"] ?? request.query["p"] ?? "1") ?? 1
            let ids = (page - 1) * 10 + 1...page * 10
            let items = ids.map { #"{"id":\#($0)}"# }.joined(separator: ",")
            let nextPath = page == 1 ? "/odd?page=2" : "/odd?p=\(page + 1)"
            let next = page < 4 ? "\"\(fixture.server.url(path: "/").absoluteString.dropLast())\(nextPath)\"" : "null"
            return .json(#"{"count":40,"next":\#(next),"previous":null,"results":[\#(items)]}"#)
        }
        let plan = try await SyncPlan.make(
            storage: fixture.store, client: fixture.client, url: fixture.server.url(path: "/odd"))
        #expect(plan.style.isAddressable)
        var sync = ListSync(storage: fixture.store, source: plan.source, list: plan.list)
        sync.concurrency = AdaptiveConcurrency(maximum: 4)
        let progress = try await sync.run()
        #expect(progress.endReached)
        var ids: [Int] = []
        try fixture.store.forEachItem(in: plan.list.key) { item in
            if case .integer(let id) = item.key { ids.append(id) }
        }
        #expect(ids == Array(1...40))
        await fixture.server.stop()
    }

    @Test func learningNeedsOneParameterThatAdvances() throws {
        func learn(_ first: String, _ next: String) -> PaginationStyle.Advancing? {
            PaginationStyle.Advancing.learning(firstURL: URL(string: first)!, nextURL: URL(string: next)!)
        }
        let drf = try #require(learn("https://x.test/posts/", "https://x.test/posts/?page=2"))
        #expect((drf.parameter, drf.first, drf.step) == ("page", 1, 1))
        #expect(drf.url(forPageAt: 9)?.absoluteString == "https://x.test/posts/?page=10")
        #expect(drf.pageCount(forTotal: 95, pageItemCount: 10) == 10)
        let offsets = try #require(learn("https://x.test/a?limit=50", "https://x.test/a?limit=50&offset=50"))
        #expect((offsets.parameter, offsets.first, offsets.step) == ("offset", 0, 50))
        #expect(offsets.pageCount(forTotal: 101, pageItemCount: 50) == 3)
        let jsonAPI = try #require(
            learn("https://x.test/a", "https://x.test/a?page%5Bnumber%5D=2&page%5Bsize%5D=20"))
        #expect(jsonAPI.parameter == "page[number]")
        #expect(jsonAPI.url(forPageAt: 2)?.absoluteString == "https://x.test/a?page%5Bnumber%5D=3&page%5Bsize%5D=20")
        #expect(jsonAPI.pageIndex(of: URL(string: "https://x.test/a?page%5Bnumber%5D=5&page%5Bsize%5D=20")!) == 4)
        // Opaque tokens, another path or host, a size that changes, and no step forward are not addressable.
        #expect(learn("https://x.test/a", "https://x.test/a?cursor=cD0yMDI0") == nil)
        #expect(learn("https://x.test/a", "https://x.test/b?page=2") == nil)
        #expect(learn("https://x.test/a", "https://y.test/a?page=2") == nil)
        #expect(learn("https://x.test/a?per_page=10", "https://x.test/a?per_page=20") == nil)
        #expect(learn("https://x.test/a?page=3", "https://x.test/a?page=3&sort=id") == nil)
        #expect(learn("https://x.test/a?page=3", "https://x.test/a?page=2") == nil)
    }
}
