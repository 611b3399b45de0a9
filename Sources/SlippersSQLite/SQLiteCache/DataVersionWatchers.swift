import Foundation
import GRDB
import Synchronization

/// Watches of cache files for commits by other connections, shared in the process: one
/// connection and one polling thread per file and interval, however many lists follow it.
///
/// Each watch reads `PRAGMA data_version` every interval on a read-only connection of its own
/// (one statement outside a transaction, no file read while nothing changed) and calls every
/// follower when it moves. The poll runs on a thread of its own that waits on a semaphore: one
/// wake-up a poll, where a task's sleep also wakes a timer thread and a worker thread.
enum DataVersionWatchers {
    private struct Key: Hashable {
        var path: String
        var interval: Duration
    }

    /// One file's watch: its followers, and what stops the thread that polls for them.
    private final class Watch: Sendable {
        let followers = Mutex<[Int: @Sendable () -> Void]>([:])
        let stopped = Mutex(false)
        /// Signalled when the watch stops, so that the poller does not wait out its interval.
        let wakeUp = DispatchSemaphore(value: 0)

        func notify() {
            for follower in followers.withLock({ Array($0.values) }) { follower() }
        }

        var isStopped: Bool { stopped.withLock { $0 } }

        func stop() {
            stopped.withLock { $0 = true }
            wakeUp.signal()
        }
    }

    private static let watches = Mutex<(byKey: [Key: Watch], nextFollower: Int)>(([:], 0))

    /// Calls `changed` after each commit by another connection to the file at `path`, looked for
    /// every `interval`, until the returned closure is called. The file's version is read before
    /// this returns: no commit after it is missed. `nil` when the file cannot be opened.
    static func follow(path: String, every interval: Duration, _ changed: @escaping @Sendable () -> Void)
        -> (@Sendable () -> Void)?
    {
        let key = Key(path: path, interval: interval)
        let (watch, follower, isNew) = watches.withLock { watches -> (Watch, Int, Bool) in
            watches.nextFollower += 1
            let follower = watches.nextFollower
            let existing = watches.byKey[key]
            let watch = existing ?? Watch()
            watch.followers.withLock { $0[follower] = changed }
            watches.byKey[key] = watch
            return (watch, follower, existing == nil)
        }
        let unfollow: @Sendable () -> Void = {
            watches.withLock { watches in
                let isLast = watch.followers.withLock { followers in
                    followers[follower] = nil
                    return followers.isEmpty
                }
                guard isLast else { return }
                if watches.byKey[key] === watch { watches.byKey[key] = nil }
                watch.stop()
            }
        }
        guard isNew else { return unfollow }
        guard let connection = connection(path: path) else {
            unfollow()
            return nil
        }
        let thread = Thread { poll(connection, every: interval, of: watch) }
        thread.name = "slippers.data-version"
        thread.start()
        return unfollow
    }

    /// A read-only connection of its own to the file, and the file's `PRAGMA data_version` as it reads it now.
    private static func connection(path: String) -> (queue: DatabaseQueue, version: Int?)? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(SQLiteCache.busyTimeout)
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        return (queue, try? queue.inDatabase { try Int.fetchOne($0, sql: "PRAGMA data_version") })
    }

    /// Reads `PRAGMA data_version` every `interval` on the watch's connection, and tells the
    /// watch's followers when it moves: another connection committed. Returns, closing the
    /// connection, once the watch is stopped.
    private static func poll(
        _ connection: (queue: DatabaseQueue, version: Int?), every interval: Duration, of watch: Watch
    ) {
        let queue = connection.queue
        defer { try? queue.close() }
        var last = connection.version
        // Between a millisecond and a day: a zero interval does not spin, a huge one does not overflow.
        let (seconds, attoseconds) = interval.components
        let nanoseconds = min(max(seconds, 0), 86_400) * 1_000_000_000 + max(attoseconds, 0) / 1_000_000_000
        let wait = DispatchTimeInterval.nanoseconds(Int(max(nanoseconds, 1_000_000)))
        while !watch.isStopped {
            _ = watch.wakeUp.wait(timeout: .now() + wait)
            if watch.isStopped { return }
            // One statement outside a transaction, prepared once, on this thread: no hop to another thread.
            guard
                let version = try? queue.inDatabase({
                    try Int.fetchOne($0.cachedStatement(sql: "PRAGMA data_version"))
                })
            else { continue }
            if version != last {
                last = version
                watch.notify()
            }
        }
    }
}
