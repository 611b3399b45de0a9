import ServiceLifecycle

/// A ``FleetWorker`` and its sync as a swift-service-lifecycle `Service`, for a `ServiceGroup`
/// whose graceful shutdown (`SIGTERM`, `SIGINT`) stops the worker cleanly: see ``FleetWorker``.
///
/// For example:
///
/// ```swift
/// let service = FleetWorkerService(worker) { job in try await mySync(job.request, into: job.cache) }
/// let group = ServiceGroup(
///     services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
public struct FleetWorkerService: Service {
    /// The worker.
    public let worker: FleetWorker
    private let sync: @Sendable (FleetWorker.Job) async throws -> String

    /// Creates the service of `worker`, syncing each list it takes with `sync` (see ``FleetWorker/run(_:)``).
    public init(_ worker: FleetWorker, sync: @escaping @Sendable (FleetWorker.Job) async throws -> String) {
        self.worker = worker
        self.sync = sync
    }

    /// Runs the worker until it is done (``FleetWorker/untilEmpty``), shut down gracefully, or cancelled.
    public func run() async throws {
        try await worker.run(sync)
    }
}
