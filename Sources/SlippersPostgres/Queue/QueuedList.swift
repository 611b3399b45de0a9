import Foundation
import Slippers

/// A list in the fleet's queue, as `slippers queue` shows it.
public struct QueuedList: Hashable, Sendable, Codable {
    /// Where a queued list stands.
    public enum State: String, Hashable, Sendable, Codable {
        /// Waiting for a worker, from ``QueuedList/dueAt`` on.
        case pending
        /// A worker holds it until ``QueuedList/leaseUntil``; past that, another worker takes it over.
        case running
        /// Synced to its end.
        case done
        /// Its last run failed; ``QueuedList/lastError`` says why. `enqueue` makes it pending again.
        case failed
    }

    /// The list's number in the queue.
    public var id: Int64
    /// The URL of the list's first page.
    public var url: String
    /// How it is synced; never headers.
    public var request: SyncRequest
    /// Where it stands.
    public var state: State
    /// The worker that holds it or last held it (`host:pid`).
    public var worker: String?
    /// Until when the worker's lease holds, unless renewed.
    public var leaseUntil: Date?
    /// How many times a worker took it.
    public var attempts: Int
    /// The list it is filed under, once planned.
    public var listKey: String?
    /// The number of pages cached for it.
    public var pages: Int
    /// The last run's summary line.
    package var lastResult: String?
    /// The last run's error.
    public var lastError: String?
    /// When it was enqueued.
    public var enqueuedAt: Date
    /// When a pending list may be taken next; `nil` for now. A scheduled list's next run, or the
    /// end of its backoff after a failure.
    public var dueAt: Date?
    /// Seconds between two runs of a scheduled list (its request's ``SyncRequest/schedule``); `nil`
    /// for a list synced once.
    public var every: Double?
    /// How many of its runs failed in a row.
    package var failures: Int

    private enum CodingKeys: String, CodingKey {
        case id, url, request, state, worker, attempts, pages
        case leaseUntil = "lease_until"
        case listKey = "collection_key"
        case lastResult = "last_result"
        case lastError = "last_error"
        case enqueuedAt = "enqueued_at"
        case dueAt = "due_at"
        case every, failures
    }
}

/// A list a worker took from the queue, with its lease.
public struct QueueClaim: Hashable, Sendable {
    /// The list's number in the queue.
    public var id: Int64
    /// How to sync it: its URL, style, limits and network settings.
    public var request: SyncRequest
    /// Whether an earlier worker had taken it (its lease ran out): the sync resumes its committed prefix.
    package var isTakeover: Bool
}
