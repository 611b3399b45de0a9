import Foundation
import Logging
import ServiceLifecycle
import Slippers
import SlippersStorage
import Synchronization

/// A worker of the fleet: takes lists from a PostgreSQL cache's queue and syncs them, each under
/// a lease it renews, until nothing is due (when asked) or the task is cancelled.
///
/// A list is taken with `FOR UPDATE SKIP LOCKED` (see ``PostgresCache/claim(worker:lease:now:)``),
/// so that workers on any number of machines never take the same one. While a list syncs, its
/// lease is renewed every third of ``lease``; a worker that dies keeps the list until its lease
/// runs out, then another takes it over and resumes it from its committed pages. A list whose
/// sync throws ends failed with the reason; one whose sync lost the database goes back to the
/// queue. When PostgreSQL cannot be reached, the worker tries again with exponential backoff, up
/// to 30 s.
///
/// A list whose request has a ``SyncRequest/schedule`` goes back to pending after each run, due
/// again `every` seconds later (±10 %), or after a backoff when its run failed (see
/// ``PostgresCache/finish(_:worker:result:error:schedule:now:)``); its next run is the same sync
/// of a list the cache holds, which resumes or revalidates it as its request says.
///
/// Run under swift-service-lifecycle's `ServiceGroup` (see ``FleetWorkerService``), a graceful
/// shutdown (`SIGTERM`, `SIGINT`) stops the worker cleanly: it takes no more lists, each list in
/// flight saves the pages it has in flight and stops (a ``SlippersStorage/SyncStop``), or is
/// cancelled once ``shutdownGrace`` has passed, and goes back to the queue at once, so that
/// another worker resumes it now rather than when its lease would run out; then ``run(_:)``
/// returns.
///
/// The worker records through swift-metrics (see the fleet guide's "Operating the fleet"): lists
/// started, completed and failed by reason, lease renewals and losses, and, every second, the
/// queue's depth by state and its lag. ``health`` tells a probe whether it works.
///
/// The sync itself is the caller's: a closure that builds the list's page source (HTTP, with the
/// worker's credentials) and syncs it into ``Job/cache``, such as with
/// ``PostgresCache/syncingSharedList(_:source:plannedStyle:refresh:concurrency:onWait:_:)``.
///
/// For example:
///
/// ```swift
/// var worker = FleetWorker(cache: cache, name: "sync-1")
/// worker.untilEmpty = true
/// try await worker.run { job in
///     let summary = try await mySync(job.request, into: job.cache)
///     return summary
/// }
/// ```
public struct FleetWorker: Sendable {
    /// A list the worker took, and what its sync needs.
    public struct Job: Sendable {
        /// The list's number in the queue.
        package let id: Int64
        /// How to sync it.
        public let request: SyncRequest
        /// Whether an earlier worker had taken it and its lease ran out: the sync resumes its committed pages.
        package let isTakeover: Bool
        /// The cache to sync it into: one per loop of the worker, kept list after list.
        public let cache: PostgresCache
        private let queue: PostgresCache

        init(claim: QueueClaim, cache: PostgresCache, queue: PostgresCache) {
            id = claim.id
            request = claim.request
            isTakeover = claim.isTakeover
            self.cache = cache
            self.queue = queue
        }

        /// Records the list the list is filed under, once the sync has planned it, for
        /// ``PostgresCache/queuedLists()`` to count its pages.
        package func recordList(_ key: String) async {
            try? await queue.recordList(key, of: id)
        }
    }

    /// What the worker did, for its log.
    public enum Event: Sendable, Hashable {
        /// The queue could not be reached; the worker tries again after the wait.
        case unreachable(reason: String, retryingIn: Duration)
        /// The queue is reachable again.
        case reachableAgain
        /// A list was taken over from a worker whose lease ran out; it resumes from its committed pages.
        case takenOver(id: Int64)
        /// A list was synced; its sync's summary.
        case synced(id: Int64, summary: String)
        /// A list's sync failed; it ends failed with the reason (a scheduled list backs off and is due again later).
        case failed(id: Int64, reason: String)
        /// The list's lease ran out and another worker took it: it is left to that worker.
        case leaseLost(id: Int64)
        /// The list's sync lost the database; it goes back to the queue.
        case requeued(id: Int64, reason: String)
        /// How a list ended could not be recorded; its lease runs out and another worker takes it.
        case notRecorded(id: Int64, reason: String)
        /// The worker is stopping: it takes no more lists, and gives back the ones it has.
        case stopping
        /// The worker stopped a list's sync as it shut down, and gave the list back to the queue for another worker.
        case released(id: Int64)
    }

    /// The queue's cache.
    public let cache: PostgresCache
    /// The worker's name in the queue, such as `host:pid`.
    package let name: String
    /// How long a list stays this worker's without a renewal (at least 3 s).
    public var lease: Duration = .seconds(30)
    /// The wait between two looks at an empty queue.
    package var poll: Duration = .seconds(1)
    /// How many lists the worker syncs at once.
    package var concurrency = 1
    /// Whether ``run(_:)`` returns once no list is due or held by a worker: scheduled lists that
    /// come due later do not keep it running.
    public var untilEmpty = false
    /// An error's one line, for the queue's `last_error` and the events.
    public var describe: @Sendable (any Error) -> String = { "\($0)" }
    /// Called with what the worker does, from any of its loops.
    package var onEvent: @Sendable (Event) -> Void = { _ in }
    /// How long, once the worker is asked to stop, a list's sync has to save the pages it has in
    /// flight before it is cancelled; 10 s unless set.
    public var shutdownGrace: Duration = .seconds(10)
    /// Whether the worker works, for a supervisor's probe: its loops run, the queue answered its
    /// last look, and it is not stopping.
    public let health = FleetHealth()

    /// Creates a worker of the queue in `cache`.
    public init(cache: PostgresCache, name: String) {
        self.cache = cache
        self.name = name
    }

    /// Takes and syncs lists until nothing is due (with ``untilEmpty``) or the task is cancelled.
    ///
    /// - parameter sync: Syncs a list into ``Job/cache`` and returns its summary line; what it
    ///   throws is the list's failure (a ``PostgresCacheError`` gives the list back to the queue).
    ///   It is cancelled when the list's lease is lost.
    ///
    /// Under a `ServiceGroup`, a graceful shutdown ends it as the type's description says.
    public func run(_ sync: @escaping @Sendable (Job) async throws -> String) async throws {
        let jobs = RunningJobs()
        let gauges = Task { await recordGauges() }
        defer { gauges.cancel() }
        do {
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<max(1, concurrency) { group.addTask { try await loop(sync, jobs: jobs) } }
                    try await group.waitForAll()
                }
            } onGracefulShutdown: { [health, shutdownGrace, onEvent] in
                health.stop()
                onEvent(.stopping)
                jobs.stopAll(grace: shutdownGrace)
            }
        } catch is CancellationError {
            return
        }
    }

    /// Records the queue's depth and lag every second, and whether the queue answered.
    private func recordGauges() async {
        while !Task.isCancelled {
            do {
                FleetMetrics.record(try await cache.queueDepth())
                health.reached(true)
            } catch is CancellationError {
                return
            } catch {
                health.reached(false)
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// One loop: the lists it takes are synced on a cache of its own, opened on its first list and
    /// kept, whose statements PostgreSQL has planned already.
    private func loop(_ sync: @escaping @Sendable (Job) async throws -> String, jobs: RunningJobs) async throws {
        health.loopStarted()
        defer { health.loopEnded() }
        var syncing: PostgresCache?
        do {
            try await takeLists(syncingOn: &syncing, jobs: jobs, sync)
        } catch {
            try? await syncing?.close()
            throw error
        }
        try? await syncing?.close()
    }

    private func takeLists(
        syncingOn syncing: inout PostgresCache?, jobs: RunningJobs,
        _ sync: @escaping @Sendable (Job) async throws -> String
    ) async throws {
        var failures = 0
        while !Task.isCancelled, !jobs.isStopped {
            let claim: QueueClaim?
            do {
                claim = try await cache.claim(worker: name, lease: lease)
                health.reached(true)
                if failures > 0 { onEvent(.reachableAgain) }
                failures = 0
            } catch is CancellationError {
                return
            } catch {
                health.reached(false)
                failures += 1
                let wait = Duration.seconds(min(30.0, 0.5 * pow(2.0, Double(min(failures, 8) - 1))))
                onEvent(.unreachable(reason: describe(error), retryingIn: wait))
                try await jobs.wait(wait)
                continue
            }
            guard let claim else {
                if untilEmpty, (try? await cache.hasListsDueOrRunning()) == false { return }
                try await jobs.wait(poll)
                continue
            }
            if syncing == nil { syncing = try? await PostgresCache.open(cache.location, logger: cache.logger) }
            await run(Job(claim: claim, cache: syncing ?? cache, queue: cache), jobs: jobs, sync)
        }
    }

    /// Syncs one list under its lease, renewed every third of it, and records how it ended.
    private func run(
        _ job: Job, jobs: RunningJobs, _ sync: @escaping @Sendable (Job) async throws -> String
    ) async {
        FleetMetrics.listStarted()
        if job.isTakeover { onEvent(.takenOver(id: job.id)) }
        let (cache, name, lease) = (self.cache, self.name, self.lease)
        let stop = SyncStop()
        let running = Task { try await SyncStop.$current.withValue(stop) { try await sync(job) } }
        jobs.add(job.id, stop: stop, task: running)
        defer { jobs.remove(job.id) }
        let lost = Mutex(false)
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: lease / 3)
                guard !Task.isCancelled else { return }
                switch try? await cache.renewLease(of: job.id, worker: name, lease: lease) {
                case .some(false):
                    FleetMetrics.leaseLost()
                    lost.withLock { $0 = true }
                    running.cancel()
                    return
                case .some(true): FleetMetrics.leaseRenewed()
                case .none: continue
                }
            }
        }
        defer { heartbeat.cancel() }
        do {
            let summary = try await withTaskCancellationHandler {
                try await running.value
            } onCancel: {
                running.cancel()
            }
            await finish(job.id, result: summary, error: nil, schedule: job.request.schedule)
            FleetMetrics.listCompleted()
            onEvent(.synced(id: job.id, summary: summary))
        } catch {
            if lost.withLock({ $0 }) {
                FleetMetrics.listFailed(reason: "lease_lost")
                onEvent(.leaseLost(id: job.id))
            } else if stop.isRequested {
                // Stopped by a shutdown (whatever the sync made of it): given back at once, for another
                // worker to resume now.
                FleetMetrics.listFailed(reason: "stopped")
                try? await cache.requeue(job.id, worker: name, reason: "its worker stopped")
                onEvent(.released(id: job.id))
            } else if error is PostgresCacheError || error is CancellationError {
                FleetMetrics.listFailed(reason: "database")
                // The database was lost, or the worker was stopped: another worker, or this one, resumes it.
                let reason = describe(error)
                onEvent(.requeued(id: job.id, reason: reason))
                try? await cache.requeue(job.id, worker: name, reason: reason)
            } else {
                FleetMetrics.listFailed(reason: "sync")
                let reason = describe(error)
                onEvent(.failed(id: job.id, reason: reason))
                await finish(job.id, result: nil, error: reason, schedule: job.request.schedule)
            }
        }
    }

    private func finish(
        _ id: Int64, result: String?, error: String?, schedule: SyncRequest.Schedule? = nil
    ) async {
        do {
            try await cache.finish(id, worker: name, result: result, error: error, schedule: schedule)
        } catch {
            onEvent(.notRecorded(id: id, reason: describe(error)))
        }
    }
}

/// The lists a worker syncs, for a graceful shutdown to stop them: each sync's stop and task.
private final class RunningJobs: Sendable {
    private struct State {
        var running: [Int64: (stop: SyncStop, task: Task<String, any Error>)] = [:]
        var stopped = false
    }

    private let state = Mutex(State())

    /// Whether the worker was asked to stop.
    var isStopped: Bool { state.withLock { $0.stopped } }

    func add(_ id: Int64, stop: SyncStop, task: Task<String, any Error>) {
        let stopped = state.withLock { state in
            state.running[id] = (stop, task)
            return state.stopped
        }
        if stopped { stop.request() }
    }

    func remove(_ id: Int64) {
        _ = state.withLock { $0.running.removeValue(forKey: id) }
    }

    /// Asks every sync to stop at its next page boundary, and cancels those still running after `grace`.
    func stopAll(grace: Duration) {
        let running = state.withLock { state in
            state.stopped = true
            return Array(state.running.values)
        }
        for job in running { job.stop.request() }
        Task {
            try? await Task.sleep(for: grace)
            for job in self.state.withLock({ Array($0.running.values) }) { job.task.cancel() }
        }
    }

    /// Waits `duration`, or less when the worker is asked to stop meanwhile.
    func wait(_ duration: Duration) async throws {
        let end = ContinuousClock.now + duration
        while !isStopped, ContinuousClock.now < end {
            try await Task.sleep(for: min(.milliseconds(100), ContinuousClock.now.duration(to: end)))
        }
    }
}
