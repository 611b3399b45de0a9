import Foundation
import SlippersTestSupport

/// Runs the built `slippers-bench` binary and captures what it prints.
enum BenchBinary {
    /// What a run printed and how it ended.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the executable next to the test runner with `arguments`, to its end.
    static func run(_ arguments: [String]) async throws -> Outcome {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let output = try TemporaryDirectory()
        defer { output.remove() }
        let stdoutURL = output.url.appendingPathComponent("stdout")
        let stderrURL = output.url.appendingPathComponent("stderr")
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)

        let process = Process()
        process.executableURL = products.appendingPathComponent("slippers-bench")
        process.arguments = arguments
        // Files rather than pipes: a full pipe would block the child while we wait for it.
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.launchedOneAtATime()
        // Polled, so that no thread of the test runner's pool is blocked while the child runs.
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8))
    }
}
