import Foundation
import SlippersTestSupport

/// Runs the built `slippers` binary as a subprocess and captures what it prints.
struct BuiltBinary {
    /// What a run printed and how it ended.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The built products directory: the test runner lives there.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The `slippers` executable next to the test runner.
    static let slippers = BuiltBinary(url: productsDirectory.appendingPathComponent("slippers"))

    var url: URL

    /// Starts the binary with `arguments` in `directory`, its output going to files in `outputDirectory`.
    func start(
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:],
        outputDirectory: URL
    ) throws -> SpawnedProcess {
        var base = ProcessInfo.processInfo.environment
        base["SLIPPERS_DB"] = nil
        let stdoutURL = outputDirectory.appendingPathComponent("stdout")
        let stderrURL = outputDirectory.appendingPathComponent("stderr")
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)
        return try SpawnedProcess.spawn(
            url.path, arguments, environment: base.merging(environment) { $1 }, directory: directory?.path,
            output: stdoutURL.path, error: stderrURL.path)
    }

    /// Runs the binary to its end without blocking a thread, and returns what it printed.
    ///
    /// Tests that serve the binary from an in-process fixture server use this
    /// one: a thread blocked waiting for the child is a thread the server lacks.
    func run(
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:]
    ) async throws -> Outcome {
        let outputDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("slippers-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outputDirectory) }
        let process = try start(arguments, in: directory, environment: environment, outputDirectory: outputDirectory)
        await Self.waitForExit(of: process)
        return Outcome(
            status: process.terminationStatus,
            stdout: try String(contentsOf: outputDirectory.appendingPathComponent("stdout"), encoding: .utf8),
            stderr: try String(contentsOf: outputDirectory.appendingPathComponent("stderr"), encoding: .utf8))
    }

    /// Returns once `process` has exited, polling so that no thread is blocked.
    static func waitForExit(of process: SpawnedProcess) async {
        while process.isRunning {
            try? await Task.sleep(for: .milliseconds(10))
        }
        process.waitUntilExit()
    }

    /// Runs the binary to its end and returns what it printed.
    func run(
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> Outcome {
        let outputDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("slippers-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outputDirectory) }
        let process = try start(arguments, in: directory, environment: environment, outputDirectory: outputDirectory)
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: try String(contentsOf: outputDirectory.appendingPathComponent("stdout"), encoding: .utf8),
            stderr: try String(contentsOf: outputDirectory.appendingPathComponent("stderr"), encoding: .utf8))
    }
}
