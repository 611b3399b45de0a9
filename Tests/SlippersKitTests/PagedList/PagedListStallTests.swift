import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

@testable import SlippersKit

/// Rows revealed in random orders and at random times, against answers of random latency and
/// random failures: a list whose last row is shown loads more, shows its end, or shows why not.
@Suite(.timeLimit(.minutes(10))) @MainActor struct PagedListStallTests {
    private let style = PaginationStyle.pageNumber(pageSize: 5, itemsKeyPath: "results")

    /// Runs one schedule on its own list; returns a description of the list when it stalled.
    private func run(schedule: Int, fixture: Fixture, random: inout SplitMix64) async throws -> String? {
        let list = PagedList<FixtureItem>(
            url: fixture.server.url(.page, query: ["schedule": String(schedule)]), style: style,
            cache: fixture.store, configuration: HTTPListConfiguration(client: fixture.client))
        let loading = Task { await list.load() }
        // A reader scrolling faster than the network: rows appear while pages are on their way.
        for _ in 0..<Int.random(in: 3...30, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: if !list.items.isEmpty { list.rowAppeared(at: list.items.count - 1) }
            case 1:
                if !list.items.isEmpty { list.rowAppeared(at: Int.random(in: 0..<list.items.count, using: &random)) }
            case 2: await Task.yield()
            default: try await Task.sleep(for: .microseconds(Int.random(in: 0...2_000, using: &random)))
            }
        }
        await loading.value
        // The reader stays at the bottom: a new last row appears once, as a view reports it; a
        // row already shown is never reported again.
        var reported = 0
        try await settle(list) {
            if list.items.count > reported {
                reported = list.items.count
                list.rowAppeared(at: reported - 1)
            }
        }
        if list.endReached || list.appendError != nil || list.refreshError != nil { return nil }
        return "schedule \(schedule): \(list.items.count) items, \(list.state.pages.count) pages, "
            + "loading \(list.isLoading), no end, no error"
    }

    /// Waits until the list has neither loaded nor pulled for 3 ms, running `step` every millisecond.
    private func settle(_ list: PagedList<FixtureItem>, step: () -> Void = {}) async throws {
        var quiet = 0
        for _ in 0..<5_000 where quiet < 3 {
            step()
            quiet = list.isLoading || list.isPulling ? 0 : quiet + 1
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test func aThousandRandomSchedulesLeaveNoListStalled() async throws {
        let fixture = try await Fixture(itemCount: 14, pageSize: 5)
        fixture.server.injectRandomly(
            [(.delay(.milliseconds(2)), 0.25), (.delay(.microseconds(500)), 0.25), (.status(503), 0.05)], seed: 44)
        var random = SplitMix64(seed: 1_000)
        var stalls: [String] = []
        for schedule in 0..<1_000 {
            if let stall = try await run(schedule: schedule, fixture: fixture, random: &random) { stalls.append(stall) }
        }
        #expect(stalls.isEmpty, "\(stalls.count) stalls: \(stalls.prefix(5))")
        await fixture.server.stop()
    }

    @Test func offlineAtTheEndOfTheCachedRowsTheListSaysSo() async throws {
        let fixture = try await Fixture(itemCount: 23, pageSize: 5)
        let online = PagedList<FixtureItem>(
            url: fixture.server.url(.page), style: style, cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await online.load()
        online.rowAppeared(at: online.items.count - 1)
        // The first row shown is within `distanceFromEnd` of the end of 10 rows too: the list stops at 15.
        await waitUntil { online.items.count == 15 && !online.isLoading && !online.isPulling }

        fixture.server.inject(.status(503), count: 1_000)
        let offline = PagedList<FixtureItem>(
            url: fixture.server.url(.page), style: style, cache: fixture.store,
            configuration: HTTPListConfiguration(client: fixture.client))
        await offline.load()
        var reported = 0
        while offline.items.count > reported {
            reported = offline.items.count
            offline.rowAppeared(at: reported - 1)
            try await settle(offline)
        }
        #expect(offline.items.count == 15)
        #expect(!offline.endReached)
        let error = try #require(offline.appendError)
        #expect(offline.refreshError != nil)
        #expect("\(error)".contains("503") || (error as? PagerError)?.code == .offline, "\(error)")
        await fixture.server.stop()
    }
}
