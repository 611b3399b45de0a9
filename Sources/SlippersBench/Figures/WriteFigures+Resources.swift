import Foundation
import LocalAPI
import SlippersKit
import SlippersSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What offline writes cost the process: memory against the number of pending writes, and the
/// CPU of an idle list that follows the cache.
extension WriteFigures {
    /// The peak resident memory, in megabytes, of a child process that sends `writes` pending
    /// writes to the fixture API on this machine: the cache is synced and the writes queued here,
    /// the push runs alone in the child.
    static func pushMemory(directory: URL, writes: Int, executable: String) throws -> Double {
        let server = FixtureServer(configuration: FixtureServer.Configuration(itemCount: writes, pageSize: 100))
        try Blocking.run { try await server.start() }
        defer { Blocking.runIgnoringErrors { await server.stop() } }
        let path = newCachePath("outbox-memory-\(writes).sqlite", in: directory)
        guard let base = ServerConfiguration(baseURL: server.baseURL) else { throw ServerError.noHost }
        try Blocking.run {
            try await queuedOutbox(of: writes, at: path, from: server, through: APIClient(configuration: base)).close()
        }
        let child = try ChildProcess.run(
            executable, ["push-probe", "--url", server.baseURL.absoluteString, "--path", path], in: directory)
        let outcome = try JSONDecoder().decode(PushProbe.Outcome.self, from: child.stdout)
        precondition(outcome.acknowledged == writes, "the push acknowledged \(outcome.acknowledged) of \(writes)")
        return Double(outcome.peakBytes) / 1_048_576
    }

    /// The CPU time, in milliseconds per second, of this process idle for `seconds`: first with
    /// nothing to do (the baseline), then while `pagers` pagers follow the cache (one connection
    /// of the process polls `PRAGMA data_version` for all of them) and nothing changes.
    static func idleFollowingCPU(directory: URL, pagers: Int, seconds: Int) throws -> (
        following: Double, idle: Double
    ) {
        let (store, list) = try generatedList(at: newCachePath("idle-pager.sqlite", in: directory))
        return try Blocking.run {
            let idleStart = ProcessCPU.time()
            try await Task.sleep(for: .seconds(seconds))
            let idle = (ProcessCPU.time() - idleStart).milliseconds / Double(seconds)
            var following: [Task<Void, Never>] = []
            defer { for task in following { task.cancel() } }
            for _ in 0..<pagers {
                let pager = Pager<BenchItem>(
                    cache: store, source: NotModifiedSource(), list: list,
                    configuration: PagerConfiguration(policy: .cacheOnly))
                await pager.start()
                following.append(Task { await pager.followCache() })
            }
            try await Task.sleep(for: .seconds(1))
            let before = ProcessCPU.time()
            try await Task.sleep(for: .seconds(seconds))
            return ((ProcessCPU.time() - before).milliseconds / Double(seconds), idle)
        }
    }
}
