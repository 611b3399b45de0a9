import Foundation
import GRDB

/// Changes of the cache, as open lists follow them.
extension CacheStore {
    /// A sequence that yields after the cache changed: at once after a write through this
    /// store, and within `interval` after a write by another connection or process.
    ///
    /// Writes through this store are seen by GRDB's observation of its commits; writes by
    /// others, by `PRAGMA data_version` read every `interval` on a connection of its own
    /// (one tiny statement, no file read while nothing changed). Changes that come close
    /// together may yield once. The sequence ends when the task that iterates it is cancelled.
    ///
    /// For example:
    ///
    /// ```swift
    /// for await _ in store.changes() { reload() }
    /// ```
    ///
    /// - parameter interval: How often other processes' writes are looked for.
    public func changes(pollingEvery interval: Duration = .milliseconds(250)) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let observation: AnyDatabaseCancellable? = writer.flatMap { writer in
            DatabaseRegionObservation(tracking: .fullDatabase).start(
                in: writer, onError: { _ in }, onChange: { _ in continuation.yield() })
        }
        // The version is read before this returns: no commit after it is missed.
        let watcher = path == ":memory:" ? nil : Self.dataVersionWatcher(path: path)
        let poller: Task<Void, Never>? = watcher.map { watcher in
            Task.detached {
                await Self.poll(watcher, every: interval) { continuation.yield() }
            }
        }
        continuation.onTermination = { _ in
            observation?.cancel()
            poller?.cancel()
        }
        return stream
    }

    /// A connection of its own to the file, and the file's `PRAGMA data_version` as it reads it now.
    private static func dataVersionWatcher(path: String) -> (queue: DatabaseQueue, version: Int?)? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        return (queue, try? queue.read { try Int.fetchOne($0, sql: "PRAGMA data_version") })
    }

    /// Reads `PRAGMA data_version` every `interval` on the watcher's connection, and calls `changed`
    /// when it moves: another connection committed. Returns when the task is cancelled.
    private static func poll(
        _ watcher: (queue: DatabaseQueue, version: Int?), every interval: Duration, changed: () -> Void
    ) async {
        let queue = watcher.queue
        defer { try? queue.close() }
        var last = watcher.version
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            guard let version = try? await queue.read({ try Int.fetchOne($0, sql: "PRAGMA data_version") }) else {
                continue
            }
            if version != last {
                last = version
                changed()
            }
        }
    }
}
