import Foundation
import SlippersTestSupport
import Testing

/// Several `slippers` processes on one new cache file at once: no lock error ever reaches a user.
@Suite struct ConcurrentProcessesTests {
    /// What the processes of one role ran, and what failed.
    private struct Tally: Sendable {
        var runs = 0
        var failures: [String] = []
    }

    /// Runs `commands` one after another, again and again, until `deadline`; each must exit 0 with nothing on stderr.
    private static func loop(
        until deadline: ContinuousClock.Instant, _ commands: @escaping @Sendable () async -> [[String]]
    ) async -> Tally {
        var tally = Tally()
        while ContinuousClock.now < deadline {
            for command in await commands() {
                do {
                    let outcome = try await BuiltBinary.slippers.run(command)
                    tally.runs += 1
                    if outcome.status != 0 || !outcome.stderr.isEmpty {
                        tally.failures.append("\(command.prefix(2)): \(outcome.status) \(outcome.stderr)")
                    }
                } catch {
                    tally.failures.append("\(command.prefix(2)): \(error)")
                }
            }
        }
        return tally
    }

    @Test func twoSyncsARefreshLoopAndAReaderLoopOnANewFileFor20SecondsMeetNoError() async throws {
        try await RunningFixture.with(itemCount: 2000, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let url = fixture.url()
            let database = ["--db", path]
            let deadline = ContinuousClock.now + .seconds(20)

            async let first = Self.loop(until: deadline) { [["sync", url] + database] }
            async let second = Self.loop(until: deadline) { [["sync", url] + database] }
            async let refresher = Self.loop(until: deadline) { [["sync", url, "--refresh"] + database] }
            async let reader = Self.loop(until: deadline) {
                // The file appears whole (created and migrated under another name, then linked): once it
                // exists every inspection command reads it; the list's own commands wait for its first page.
                guard FileManager.default.fileExists(atPath: path) else { return [] }
                return [["lists", "--json"] + database, ["stats"] + database, ["doctor"] + database]
                    + (await Self.hasList(path) ? [["pages", url] + database, ["export", url] + database] : [])
            }
            let tallies = await [first, second, refresher, reader]
            for (role, tally) in zip(["sync", "sync", "refresh", "reader"], tallies) {
                #expect(tally.failures.isEmpty, "\(role): \(tally.failures.prefix(3))")
                #expect(tally.runs > 0, "\(role)")
            }
            print(
                "concurrent processes: runs per role \(tallies.map(\.runs)) in 20 s, failures \(tallies.map(\.failures.count))"
            )

            let last = try await BuiltBinary.slippers.run(["sync", url] + database)
            #expect(last.status == 0, "\(last.stderr)")
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == Array(1...2000))
            let doctor = try await BuiltBinary.slippers.run(["doctor"] + database)
            #expect(doctor.status == 0, "\(doctor.stdout)")
        }
    }

    /// Whether the cache at `path` holds a list yet.
    private static func hasList(_ path: String) async -> Bool {
        guard let outcome = try? await BuiltBinary.slippers.run(["lists", "--json", "--db", path]) else {
            return false
        }
        return outcome.stdout.contains("\"key\"")
    }
}
