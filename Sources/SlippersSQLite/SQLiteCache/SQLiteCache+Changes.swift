import Foundation
import GRDB

/// Changes of the cache, as open lists follow them.
extension SQLiteCache {
    /// A sequence that yields after the cache changed: at once after a write through this
    /// store, and within `interval` after a write by another connection or process.
    ///
    /// Writes through this cache are seen by GRDB's observation of its commits; writes by
    /// others, by `PRAGMA data_version` read every `interval` on a connection of its own, shared
    /// by every sequence of this process that follows the file at that interval (one tiny
    /// statement, no file read while nothing changed). Changes that come close together may
    /// yield once. The sequence ends when the task that iterates it is cancelled.
    ///
    /// For example:
    ///
    /// ```swift
    /// for await _ in cache.changes() { reload() }
    /// ```
    ///
    /// - parameter interval: How often other processes' writes are looked for. By default 50 ms:
    ///   another process's change is shown within 100 ms, for 20 statements a second while
    ///   nothing changes, however many lists follow the file (the benchmark's idle figure).
    public func changes(pollingEvery interval: Duration = .milliseconds(50)) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let observation: AnyDatabaseCancellable? = writer.flatMap { writer in
            DatabaseRegionObservation(tracking: .fullDatabase).start(
                in: writer, onError: { _ in }, onChange: { _ in continuation.yield() })
        }
        // The version is read before this returns: no commit after it is missed.
        let unfollow =
            path == ":memory:"
            ? nil : DataVersionWatchers.follow(path: path, every: interval) { continuation.yield() }
        continuation.onTermination = { _ in
            observation?.cancel()
            unfollow?()
        }
        return stream
    }
}
