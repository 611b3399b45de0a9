import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Testing

/// The source of a list's changes: the plan's URL with the since parameter set.
@Suite struct SyncPlanIncrementalTests {
    static func plan(url: String) throws -> SyncPlan {
        let url = try #require(URL(string: url))
        let configuration = try #require(ServerConfiguration(baseURL: url))
        let client = APIClient(configuration: configuration)
        let base = HTTPPageSource(client: client, url: url, style: .pageNumber(firstPage: 1, pageSize: 10))
        return SyncPlan(
            source: PrimedPageSource(base: base, firstPage: nil),
            list: ListDescriptor(key: url.absoluteString, itemType: "Post"), stored: nil)
    }

    @Test func theSinceValueIsSetInTheURLPercentEncodedWhole() throws {
        let plan = try Self.plan(url: "https://api.example.com/posts?sort=id&since=old")
        let source = plan.source(since: "2026-01-01T00:00:00+02:00", parameter: "since")
        #expect(
            source.base.url.absoluteString == "https://api.example.com/posts?sort=id&since=2026-01-01T00:00:00%2B02:00")
        #expect(plan.source(since: nil, parameter: "since") === plan.source)
    }

    @Test func aQueuedRequestsSettingsKeepTheDefaultLookbackUnlessGiven() {
        let plain = IncrementalSync<PrimedPageSource>.Settings(
            SyncRequest.Incremental(field: "updated_at", sinceParameter: "since"))
        #expect(plain.lookback == .seconds(300))
        let given = IncrementalSync<PrimedPageSource>.Settings(
            SyncRequest.Incremental(field: "updated_at", sinceParameter: "since", lookback: 90, initialValue: "0"))
        #expect(given.lookback == .seconds(90))
        #expect(given.initialValue == "0")
        let negative = IncrementalSync<PrimedPageSource>.Settings(
            SyncRequest.Incremental(field: "f", sinceParameter: "s", lookback: -.infinity))
        #expect(negative.lookback == .zero)
    }
}
