import Foundation
import SlippersTestSupport

/// The `StoreWriter` test executable, run as a child process.
enum StoreWriterProcess {
    /// The executable, built next to the test runner.
    static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("StoreWriter")
    }

    /// Starts a writer of `pages` pages of `size` items into `list` of the database at `path`,
    /// and returns once it has opened the database.
    static func start(path: String, list: String, pages: Int, size: Int) throws -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = [path, list, String(pages), String(size)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.launchedOneAtATime()
        // Wait for "ready": the child has opened (and, the first time, migrated) the database.
        _ = output.fileHandleForReading.readData(ofLength: 6)
        return process
    }

    /// Kills the process with SIGKILL and waits for it.
    static func kill(_ process: Process) {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
