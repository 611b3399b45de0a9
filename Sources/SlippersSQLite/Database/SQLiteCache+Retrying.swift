import Foundation
import GRDB
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// How long an operation keeps trying while another process holds the file's lock.
    ///
    /// SQLite's busy handler already waits up to ``busyTimeout`` for a lock;
    /// `SQLITE_BUSY` still escapes it where waiting could deadlock (a read
    /// transaction that must become a write one, a snapshot that went stale,
    /// the switch of a new file to WAL). Those are retried from the start of
    /// the operation until this much time has passed.
    static let retryDeadline: TimeInterval = 3 * busyTimeout

    /// How many times a migration that failed for another reason than a lock is tried again.
    ///
    /// Processes that open a new file together may both run its first
    /// migration; the one that loses fails (its table exists) and rolls back,
    /// then sees the migration applied when it tries again.
    private static let migrationAttempts = 5

    /// Runs `body`, trying it again while it fails with `SQLITE_BUSY` or `SQLITE_LOCKED`, up to ``retryDeadline``.
    ///
    /// - throws: `SQLiteCacheError.busy(path:)` when the lock is still held at the deadline, or what `body` throws.
    static func retryingWhileBusy<T>(path: String, _ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(retryDeadline)
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where isBusy(error) {
                attempt += 1
                guard Date() < deadline else { throw SQLiteCacheError.busy(path: path) }
                pause(attempt: attempt)
            } catch let error as SQLiteCacheError where error == .busy(path: path) {
                attempt += 1
                guard Date() < deadline else { throw error }
                pause(attempt: attempt)
            }
        }
    }

    /// Runs `body`, turning SQLite's write failures into the cache errors a user can act on.
    static func translatingWriteErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where isBusy(error) {
            // Left for `retryingWhileBusy`, which tries again.
            throw error
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: throw SQLiteCacheError.diskFull(path: path)
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: throw DatabaseFile.classify(error, path: path)
            default: throw error
            }
        }
    }

    /// Applies the migrations this build knows, safely while other processes open the same file.
    ///
    /// Each migration is one `IMMEDIATE` transaction: one process applies it
    /// while the others wait on the lock; a process that raced another to the
    /// same migration rolls back and, trying again, finds it applied.
    static func migrate(_ pool: DatabasePool, path: String) throws {
        var failures = 0
        try retryingWhileBusy(path: path) {
            while true {
                do {
                    try Schema.migrator.migrate(pool)
                    return
                } catch let error as DatabaseError where !isBusy(error) && failures < migrationAttempts {
                    failures += 1
                    pause(attempt: failures)
                }
            }
        }
    }

    /// Whether `error` means another connection holds a lock.
    static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    /// The pauses between attempts on a busy file: from 5 ms, doubling up to 200 ms, with jitter so processes part.
    private static let busyBackoff = Backoff(initial: .milliseconds(5), maximum: .milliseconds(200), jitter: 0.5)

    /// Sleeps a little before another attempt.
    private static func pause(attempt: Int) {
        Thread.sleep(forTimeInterval: busyBackoff.delay(afterRetries: attempt).timeInterval)
    }
}
