import Foundation
import Testing

/// The built binary end to end, on a tiny workload: the numbers are not checked (tests never
/// assert on time), only that a run completes and prints a report a script can read.
@Suite struct BenchCommandTests {
    @Test func jsonReportHasOneEntryPerFigureInTheIssuesSchema() async throws {
        let outcome = try await BenchBinary.run([
            "--json", "--items", "1000", "--rounds", "2", "--only", "baseline-read-page",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["machine", "figures"])
        let figures = try #require(json["figures"] as? [[String: Any]])
        #expect(figures.count == 4)
        #expect(figures.allSatisfy { ($0["value"] as? Double ?? 0) > 0 })
        #expect(outcome.stderr.contains("measuring baseline-read-page"))
    }

    @Test func listNamesTheFigureGroups() async throws {
        let outcome = try await BenchBinary.run(["--list"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("baseline-depth"))
        #expect(outcome.stdout.contains("network-speed"))
    }

    @Test func anUnknownGroupIsAUsageError() async throws {
        let outcome = try await BenchBinary.run(["--only", "no-such-figure"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--list"))
    }
}
