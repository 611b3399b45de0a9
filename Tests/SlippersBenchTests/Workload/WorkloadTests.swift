import Foundation
import Slippers
import Testing

@testable import SlippersBench

@Suite struct WorkloadTests {
    @Test func itemsAreTheSameOnEveryRunAndDifferFromEachOther() {
        #expect(ItemGenerator.item(42) == ItemGenerator.item(42))
        #expect(ItemGenerator.item(42) != ItemGenerator.item(43))
        #expect(ItemGenerator.item(42).id == 43)
    }

    @Test func itemsHaveTheIssuesShape() throws {
        let item = ItemGenerator.item(7)
        #expect((40..<52).contains(item.title.count))
        #expect((300..<315).contains(item.body.count))
        #expect(item.tags.count == 3)
        let json = try #require(String(data: try JsonProvider.encode(item), encoding: .utf8))
        #expect(json.contains("\"created_at\""))
        #expect((400..<700).contains(json.utf8.count))
    }

    @Test func itemsSurviveTheJsonRoundTripUnchanged() throws {
        let items = (0..<200).map(ItemGenerator.item)
        #expect(try JsonProvider.decode([BenchItem].self, from: JsonProvider.encode(items)) == items)
    }

    @Test func pagesAreNumberedFromOneInTheServersOrder() {
        let workload = Workload(itemCount: 1_000)
        #expect(workload.pageCount == 20)
        #expect(workload.items(page: 1).first?.id == 1)
        #expect(workload.items(page: 20).last?.id == 1_000)
    }

    @Test func theServerResponseCarriesThePageUnderResults() throws {
        let workload = Workload(itemCount: 1_000)
        let first = try JsonProvider.decode(ServerResponse.self, from: workload.serverResponse(page: 1))
        let last = try JsonProvider.decode(ServerResponse.self, from: workload.serverResponse(page: 20))
        #expect(first.results == workload.items(page: 1))
        #expect(first.count == 1_000 && first.next != nil)
        #expect(last.next == nil)
    }

    @Test func roundsVisitManyPagesWithinTheList() {
        let workload = Workload(itemCount: 5_000)
        let pages = (0..<100).map(workload.page(forRound:))
        #expect(pages.allSatisfy(workload.pageNumbers.contains))
        #expect(Set(pages).count == 100)
    }
}
