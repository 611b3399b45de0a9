import Foundation
import SlippersFixtures
import SlippersTestSupport
import Testing

/// `slippers sync` against hostile servers, measured in a child process: bounded memory, no busy wait.
@Suite struct SyncLimitsCommandTests {
    /// Runs `slippers sync URL arguments…` to its end and returns the measurement and what it printed on stderr.
    private func measuredSync(_ url: URL, _ arguments: [String] = []) async throws -> (MeasuredRun, [Substring]) {
        let directory = try TemporaryDirectory()
        let run = try BuiltBinary.slippers.runMeasuringMemory(
            ["sync", url.absoluteString, "--db", directory.path()] + arguments,
            stdoutPath: directory.path("sync.out"), stderrPath: directory.path("sync.err"))
        let stderr = try String(contentsOfFile: directory.path("sync.err"), encoding: .utf8)
        return (run, stderr.split(separator: "\n"))
    }

    private static let megabytes = 1024 * 1024

    @Test func aTwoGigabyteBodyFailsAtTheLimitWithoutFillingTheMemory() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        for route in [HostileServer.Route.huge, .hugeChunked] {
            let (run, stderr) = try await measuredSync(server.url(route))
            #expect(run.status == 1, "\(route)")
            #expect(stderr.count == 1, "\(route): \(stderr)")
            #expect(stderr.first?.hasPrefix("slippers: The response is larger than the limit of 64 MB") == true)
            #expect(stderr.first?.contains("--max-body-size") == true)
            #expect(run.peakResidentBytes < 200 * Self.megabytes, "\(route): \(run.peakResidentBytes)")
        }
    }

    @Test func aGzipBombFailsAtTheLimitWithoutFillingTheMemory() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let (run, stderr) = try await measuredSync(server.url(.gzipBomb))
        #expect(run.status == 1)
        #expect(stderr.count == 1, "\(stderr)")
        #expect(stderr.first?.hasPrefix("slippers: The response is larger than the limit of 64 MB") == true)
        #expect(run.peakResidentBytes < 200 * Self.megabytes, "\(run.peakResidentBytes)")
    }

    @Test func aSmallerLimitIsTakenFromTheOption() async throws {
        let server = try HostileServer(configuration: .init(hugeBodySize: 8 << 20))
        defer { server.stop() }
        let (run, stderr) = try await measuredSync(server.url(.hugeChunked), ["--max-body-size", "1MB"])
        #expect(run.status == 1)
        #expect(stderr.first?.hasPrefix("slippers: The response is larger than the limit of 1 MB") == true)
    }

    @Test func waitingOnASilentServerCostsAlmostNoCPU() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let (run, stderr) = try await measuredSync(
            server.url(.silent), ["--idle-timeout", "6", "--deadline", "30", "--retries", "0", "--retry-for", "0"])
        #expect(run.status == 1)
        #expect(stderr.count == 1, "\(stderr)")
        #expect(stderr.first?.hasPrefix("slippers: The request timed out") == true)
        // URLSession on Linux spent more than 0.8 s of CPU for every second of such a wait.
        #expect(run.cpuSeconds < 0.5, "\(run.cpuSeconds) s of CPU")
    }

    @Test func aDrippingServerIsCutOffByTheDeadline() async throws {
        let server = try HostileServer(configuration: .init(dripInterval: .milliseconds(200)))
        defer { server.stop() }
        let (run, stderr) = try await measuredSync(
            server.url(.drip), ["--idle-timeout", "5", "--deadline", "1.5", "--retries", "0", "--retry-for", "0"])
        #expect(run.status == 1)
        #expect(stderr.first?.hasPrefix("slippers: The request timed out") == true)
    }

    @Test func aTruncatedBodyIsAConnectionLost() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let (run, stderr) = try await measuredSync(server.url(.truncated), ["--retries", "0", "--retry-for", "0"])
        #expect(run.status == 1)
        #expect(stderr.first?.hasPrefix("slippers: The connection was lost") == true, "\(stderr)")
    }
}
