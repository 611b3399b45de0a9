import Foundation
import LocalAPI
import SlippersFixtures
import SlippersTestSupport
import Testing

/// `slippers sync` through a server's rate limit: it waits for the reset instead of failing, and says so once per wait.
@Suite struct SyncRateLimitTests {
    @Test(arguments: [RateLimitedList.Style.gitHub, .ietf])
    func aSyncThroughASpentBudgetWaitsForTheResetWithOneLinePerWait(style: RateLimitedList.Style) async throws {
        try await RunningFixture.with { fixture in
            // Three requests per two seconds: even a slow run spends each window's budget.
            let list = RateLimitedList(style, limit: 3, window: 2, pages: 12)
            list.install(on: fixture.server)
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/items").absoluteString
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--retry-delay", "0.2", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("120 items"), "\(outcome.stdout)")
            #expect(list.refused <= 1, "\(list.refused) refused")
            let waitLines = outcome.stderrLines.filter { $0.hasPrefix("slippers: rate limit of 127.0.0.1:") }
            #expect(waitLines.count == list.waitedWindows, "\(outcome.stderr)")
            #expect(list.waitedWindows >= 1)
            let pattern = /slippers: rate limit of 127\.0\.0\.1:\d+ spent: waiting until \d\d:\d\d:\d\d \(in \d s\)/
            for line in waitLines { #expect(line.wholeMatch(of: pattern) != nil, "\(line)") }
            #expect(outcome.stderrLines.count == waitLines.count, "\(outcome.stderr)")
        }
    }

    @Test func aServerThatSaysOnlyRetryAfterAsADateIsWaitedForUntilThatDate() async throws {
        try await RunningFixture.with { fixture in
            // Nothing says the budget before it is spent: each window's first refusal says until when.
            let list = RateLimitedList(.retryAfterDate, limit: 4, window: 2, pages: 12)
            list.install(on: fixture.server)
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/items").absoluteString
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--retry-delay", "0.2", "--concurrency", "1", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("120 items"), "\(outcome.stdout)")
            // One refusal per spent window at most: never a second one before the date.
            #expect(list.refused <= list.waitedWindows + 1, "\(list.refused) refused, \(list.waitedWindows) windows")
            #expect(list.waitedWindows >= 1)
            let waitLines = outcome.stderrLines.filter { $0.hasPrefix("slippers: rate limit of 127.0.0.1:") }
            #expect(!waitLines.isEmpty, "\(outcome.stderr)")
        }
    }
}
