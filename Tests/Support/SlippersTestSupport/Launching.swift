import Foundation
import Synchronization

extension Process {
    private static let launching = Mutex(())

    /// Starts the process, one launch at a time across the test runner.
    ///
    /// Foundation's `Process.run()` on Linux was seen to crash in `memcpy` while
    /// many tests launched children at once; launches are a few milliseconds,
    /// so taking turns costs nothing that matters.
    public func launchedOneAtATime() throws {
        try Self.launching.withLock { _ in try run() }
    }
}

extension Process {
    /// Runs the executable `name` built beside the test runner with `arguments`, to its end, and
    /// returns its exit status and the lines it printed.
    public static func runBuiltSibling(_ name: String, _ arguments: [String]) throws -> (Int32, [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.launchedOneAtATime()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        )
    }
}
