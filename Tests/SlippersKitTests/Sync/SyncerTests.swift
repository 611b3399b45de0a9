import Foundation
import LocalAPI
import SlippersKit
import SlippersStorage
import SlippersTestSupport
import Synchronization
import Testing

/// The library's one sync, on a cache file and the fixture API: what `slippers sync` runs.
@Suite(.timeLimit(.minutes(2))) struct SyncerTests {
    @Test func aRequestIsWalkedExactlyAndASecondRunFetchesNothing() async throws {
        let fixture = try await Fixture(itemCount: 95, pageSize: 10)
        let request = SyncRequest(url: fixture.server.url(.page).absoluteString)
        let planned = Mutex<[String]>([])
        let report = try await Syncer().run(request, into: fixture.store) { key in
            planned.withLock { $0.append(key) }
        }
        #expect(report.kind == .walked)
        #expect(report.endReached)
        #expect(report.itemsCached == 95)
        #expect(report.itemsFetched == 95)
        #expect(report.summary.hasSuffix("end reached, 95 items cached"), "\(report.summary)")
        #expect(planned.withLock { $0 } == [report.list])

        let again = try await Syncer().run(request, into: fixture.store)
        #expect(again.pagesFetched == 0)
        #expect(again.summary.contains("is complete in"), "\(again.summary)")
        await fixture.server.stop()
    }

    @Test func progressIsToldPageByPageAndRevalidationWalksTheCachedPages() async throws {
        let fixture = try await Fixture(itemCount: 30, pageSize: 10)
        var request = SyncRequest(url: fixture.server.url(.page).absoluteString)
        request.network.concurrency = 1
        let figures = Mutex<[SyncProgress]>([])
        var syncer = Syncer()
        syncer.onEvent = { event in
            if case .progress(let progress) = event { figures.withLock { $0.append(progress) } }
        }
        _ = try await syncer.run(request, into: fixture.store)
        #expect(figures.withLock { $0.map(\.itemsCached) }.last == 30)
        #expect(figures.withLock { $0.map(\.total) }.last == 30)

        request.revalidate = true
        let revalidated = try await Syncer().run(request, into: fixture.store)
        #expect(revalidated.kind == .revalidated)
        #expect(revalidated.summary.contains("3 unchanged, 0 changed, 0 new, 0 removed"), "\(revalidated.summary)")
        await fixture.server.stop()
    }

    @Test func theHeadersGoWithTheRequestsAndAWrongURLIsOneLine() async throws {
        let fixture = try await Fixture(itemCount: 12, pageSize: 10)
        fixture.server.setRequiredBearerToken("secret")
        let request = SyncRequest(url: fixture.server.url(.page).absoluteString)
        let report = try await Syncer().run(request, into: fixture.store, headers: ["Authorization": "Bearer secret"])
        #expect(report.itemsCached == 12)
        #expect(
            fixture.server.requests.allSatisfy { request in
                request.headers.first { $0.key.lowercased() == "authorization" }?.value == "Bearer secret"
            })

        await #expect(throws: SyncFailure.invalidURL("ftp://example.com/list")) {
            try await Syncer().run(SyncRequest(url: "ftp://example.com/list"), into: fixture.store)
        }
        await fixture.server.stop()
    }
}
