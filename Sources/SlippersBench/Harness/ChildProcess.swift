import Foundation

/// Runs this benchmark's executable again, as a child process, and returns what it printed.
enum ChildProcess {
    /// The child's standard output, and how long the child lived as seen from here.
    struct Outcome {
        var stdout: Data
        var wallTime: Duration
    }

    /// A child process failed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `executable` with `arguments` to its end; throws when it exits with a non-zero status.
    static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> Outcome {
        let output = directory.appendingPathComponent("child-\(UUID().uuidString).out")
        try Data().write(to: output)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // A file rather than a pipe: a full pipe would block the child while we wait for it.
        process.standardOutput = handle
        process.standardInput = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        process.waitUntilExit()
        let wallTime = start.duration(to: clock.now)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.first ?? "child") exited with status \(process.terminationStatus)")
        }
        return Outcome(stdout: try Data(contentsOf: output), wallTime: wallTime)
    }
}
