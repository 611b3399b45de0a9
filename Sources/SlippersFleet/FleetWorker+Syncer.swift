import Foundation
import Slippers
import SlippersKit
import SlippersNetworking
import SlippersPostgres

extension FleetWorker {
    /// Takes and syncs lists with `syncer`, as `slippers worker` does, until nothing is due (with
    /// ``FleetWorker/untilEmpty``) or the task is cancelled: see ``FleetWorker/run(_:)``.
    ///
    /// - parameter headers: The headers of each origin's lists (credentials); a list gets those
    ///   of its own origin only. Never stored.
    public func run(syncer: Syncer = Syncer(), headers: [Origin: [String: String]] = [:]) async throws {
        try await run(Self.sync(with: syncer, headers: headers))
    }

    /// The sync of a job by `syncer`: its request into the job's cache, with its origin's headers,
    /// its list recorded once planned; returns the run's summary line.
    public static func sync(
        with syncer: Syncer, headers: [Origin: [String: String]]
    ) -> @Sendable (Job) async throws -> String {
        { job in
            let origin = URL(string: job.request.url).flatMap(Origin.init)
            let report = try await syncer.run(
                job.request, into: job.cache, headers: origin.flatMap { headers[$0] } ?? [:]
            ) { key in
                await job.recordList(key)
            }
            return report.summary
        }
    }
}

extension FleetWorkerService {
    /// Creates the service of `worker`, syncing each list it takes with `syncer` (see ``FleetWorker/run(syncer:headers:)``).
    public init(_ worker: FleetWorker, syncer: Syncer = Syncer(), headers: [Origin: [String: String]] = [:]) {
        self.init(worker, sync: FleetWorker.sync(with: syncer, headers: headers))
    }
}
