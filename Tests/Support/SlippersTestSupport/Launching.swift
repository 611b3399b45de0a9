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
