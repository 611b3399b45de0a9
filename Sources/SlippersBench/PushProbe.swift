import ArgumentParser
import Foundation
import SlippersKit

/// The child process of the outbox memory figure: sends a cache file's outbox and reports its peak memory.
///
/// Hidden from help: the benchmark runs it once per outbox size, so that the peak resident
/// set size it reports (`VmHWM`, the process's whole life) belongs to one push alone, and not
/// to the fixture server, which records every request it receives. It prints one JSON object: ``Outcome``.
struct PushProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-probe",
        abstract: "Send a cache file's outbox; report the writes acknowledged and the peak memory.",
        shouldDisplay: false
    )

    /// What the probe measured.
    struct Outcome: Codable {
        /// Writes the server acknowledged.
        var acknowledged: Int
        /// The process's peak resident set size, in bytes, over its whole life.
        var peakBytes: UInt64
    }

    @Option(help: "The server's base URL, e.g. http://127.0.0.1:PORT/.")
    var url: String

    @Option(help: "The cache file whose outbox is sent.")
    var path: String

    func run() throws {
        guard let base = URL(string: url), let server = ServerConfiguration(baseURL: base) else {
            throw ValidationError("--url must be an http URL")
        }
        let path = path
        let report = try Blocking.run {
            try await OutboxPush(cache: try SQLiteCache(path: path), client: APIClient(configuration: server)).run()
        }
        let outcome = Outcome(acknowledged: report.acknowledged, peakBytes: PeakMemory.peakBytes() ?? 0)
        print(String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self))
    }
}
