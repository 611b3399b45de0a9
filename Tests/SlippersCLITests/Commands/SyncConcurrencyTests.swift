import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// `sync --concurrency`, killed with SIGKILL at several moments, then run again.
@Suite struct SyncConcurrencyTests {
    @Test(arguments: [2, 9, 20])
    func aConcurrentSyncKilledAtAnyMomentResumesWithoutFetchingASavedPage(killAfterRequests: Int) async throws {
        let itemCount = 1_500
        let pageSize = 30
        try await RunningFixture.with(itemCount: itemCount, pageSize: pageSize) { fixture in
            // Slow answers, and none from the request the kill waits for on, so that the kill lands in
            // the middle of the list however slow the machine is.
            fixture.server.inject(.delay(.milliseconds(30)), count: 10_000)
            fixture.server.hold(fromRequest: killAfterRequests)
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let url = fixture.url(.page, query: ["per_page": String(pageSize)])
            let output = try TemporaryDirectory()
            let first = try BuiltBinary.slippers.start(
                ["sync", url, "--db", path, "--concurrency", "4"], outputDirectory: output.url)
            await fixture.server.waitForRequests(killAfterRequests)
            kill(first.processIdentifier, SIGKILL)
            await BuiltBinary.waitForExit(of: first)
            #expect(first.terminationReason == .uncaughtSignal)

            let killed = try SQLiteCache(path: path, mode: .readOnly).lists().first
            let committed = killed?.currentPageCount ?? 0
            #expect(killed?.endReached != true)
            let requestsOfFirstRun = fixture.server.requestCount
            fixture.server.release()

            let second = try await BuiltBinary.slippers.run(["sync", url, "--db", path, "--concurrency", "4"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("end reached, \(itemCount) items cached"))

            // Requests the first run had in flight may reach the server late; like the second run's,
            // they are for pages it had not saved. No page is asked for past the last one.
            // The first page, asked for without a page number to detect the style, is page 1.
            let pages = fixture.server.requests.dropFirst(requestsOfFirstRun).map { Int($0.query["page"] ?? "1") ?? 0 }
            #expect(pages.allSatisfy { $0 > committed && $0 <= itemCount / pageSize })

            // The list's key leaves the page size out of the URL.
            let export = try await BuiltBinary.slippers.run([
                "export", fixture.url(), "--format", "ndjson", "--db", path,
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...itemCount))
        }
    }

    @Test func theConcurrencyMustBeAtLeastOne() async throws {
        let result = try await BuiltBinary.slippers.run(["sync", "http://127.0.0.1:1/page", "--concurrency", "0"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--concurrency must be 1 or more."))
    }
}
