import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// What a sync says while its requests keep failing, and when it gives up.
@Suite struct SyncFailureNoticeTests {
    @Test func aNewListThatCannotConnectEndsAfterItsRequestsRetriesWithOneErrorLine() async throws {
        // A port a server listened on a moment ago, now closed: connections are refused.
        let fixture = try await RunningFixture.start()
        let url = fixture.url()
        await fixture.stop()
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run([
            "sync", url, "--retry-delay", "0.05", "--db", directory.path(),
        ])
        #expect(outcome.status == 1)
        let lines = outcome.stderrLines
        #expect(lines.count == 5, "\(outcome.stderr)")
        for (index, line) in lines.dropLast().enumerated() {
            #expect(line.hasPrefix("slippers: Cannot connect to the server (GET "), "\(line)")
            #expect(line.contains("attempt \(index + 1) of 5, trying again in "), "\(line)")
        }
        #expect(lines.last?.hasPrefix("slippers: Cannot connect to the server") == true)
        #expect(lines.last?.contains("attempt") == false)
    }

    @Test func aListUnderWaySaysWhatItWaitsForAndUntilWhen() async throws {
        try await RunningFixture.with { fixture in
            let directory = try TemporaryDirectory()
            let first = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--max-pages", "1", "--db", directory.path(),
            ])
            #expect(first.status == 0, "\(first.stderr)")
            fixture.server.inject(.status(500, body: "down for maintenance"), count: 10_000)
            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--retry-delay", "0.05", "--retry-for", "1", "--concurrency", "1",
                "--db", directory.path(),
            ])
            #expect(outcome.status == 1)
            let lines = outcome.stderrLines
            #expect(lines.first?.contains("HTTP 500") == true, "\(outcome.stderr)")
            #expect(lines.first?.contains("attempt 1 of 5") == true, "\(outcome.stderr)")
            let pageLines = lines.filter { $0.hasPrefix("slippers: page 2 still failing: HTTP 500") }
            #expect(!pageLines.isEmpty, "\(outcome.stderr)")
            #expect(pageLines.allSatisfy { $0.contains("(--retry-for 1)") && $0.contains(", until ") })
            #expect(lines.last?.hasPrefix("slippers: HTTP 500") == true)
            #expect(!outcome.stderr.contains("\u{1B}"), "no terminal codes off a terminal")
        }
    }

    @Test func verboseLogsTheRetriesInsteadOfTheNotice() async throws {
        let fixture = try await RunningFixture.start()
        let url = fixture.url()
        await fixture.stop()
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run([
            "--verbose", "sync", url, "--retries", "1", "--retry-delay", "0.05", "--db", directory.path(),
        ])
        #expect(outcome.status == 1)
        #expect(!outcome.stderr.contains("attempt 1 of 2, trying again"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("retrying"), "\(outcome.stderr)")
    }
}
