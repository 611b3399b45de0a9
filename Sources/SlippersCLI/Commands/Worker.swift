import ArgumentParser
import CoreMetrics
import Foundation
import Prometheus
import ServiceLifecycle
import Slippers
import SlippersFleet
import SlippersKit
import SlippersNetworking
import SlippersPostgres

extension SlippersCommand {
    /// Takes lists from the queue of a PostgreSQL cache and syncs them, under a lease it renews.
    struct Worker: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "worker",
            abstract: "Sync the lists of a PostgreSQL cache's queue, under a lease renewed while each list runs.",
            discussion: """
                Each list is taken with FOR UPDATE SKIP LOCKED, so workers on any number of machines \
                never take the same list. The worker renews its lease every third of --lease; a \
                worker that dies (even by SIGKILL) keeps the list until its lease runs out, and then \
                another worker takes it and resumes it from its committed prefix, not from page 1. \
                A list whose sync fails (its server keeps failing past --retry-for, a bad page) ends \
                failed with its reason and the worker goes on with the others; `slippers enqueue` \
                makes it pending again. When PostgreSQL cannot be reached, the worker says so in one \
                line and tries again with exponential backoff (up to 30 s); a list it could not \
                finish for that reason goes back to the queue. A list enqueued with --every goes \
                back to pending after each run, due again that long after (±10 %); when its run \
                failed, it is due after a backoff instead (30 s, doubled with each failure in a row, \
                at most --every and 1 h).

                Credentials are given per origin, never stored: --origin-header \
                'https://api.example.com=Authorization: Bearer TOKEN' (repeatable), or \
                --header-file FILE with one ORIGIN=Name: value per line (# starts a comment). Each \
                list gets the headers of its own origin only.

                One summary line per list goes to stdout, prefixed with its number in the queue.

                --metrics 127.0.0.1:9464 serves the worker's metrics in the Prometheus text format \
                on /metrics, and /health (200 while the worker reaches PostgreSQL and its loops run, \
                503 otherwise) on the same port. SIGTERM or SIGINT stops the worker cleanly: it takes \
                no more lists, each list in flight saves the pages it has in flight (or is cancelled \
                after --shutdown-grace) and goes back to the queue at once for another worker to \
                resume, and the worker exits 0.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var logging: LoggingOptions

        @Flag(help: "Exit once no list is due or held by a worker; lists due later do not count (default: wait).")
        var untilEmpty = false

        @Option(help: ArgumentHelp("How many lists this worker syncs at once.", valueName: "count"))
        var concurrency = 1

        @Option(
            help: ArgumentHelp(
                "Seconds a list stays this worker's without a renewal; a dead worker's lists are taken over after it.",
                valueName: "seconds"))
        var lease = 30

        @Option(help: ArgumentHelp("Seconds between looks at an empty queue.", valueName: "seconds"))
        var poll: Double = 1

        @Option(
            name: .customLong("origin-header"),
            help: ArgumentHelp(
                "A header for the lists of one origin, 'ORIGIN=Name: value'; repeatable. Never stored.",
                valueName: "origin=header"))
        var originHeaders: [String] = []

        @Option(
            help: ArgumentHelp(
                "A file of ORIGIN=Name: value lines, read by this worker only (keep it 0600).", valueName: "path"))
        var headerFile: String?

        @Option(
            help: ArgumentHelp(
                "Serve /metrics (Prometheus text) and /health on this address, such as 127.0.0.1:9464.",
                valueName: "host:port"))
        var metrics: String?

        @Option(
            help: ArgumentHelp(
                "Seconds a list in flight has, after SIGTERM or SIGINT, to save its pages in flight before it is "
                    + "cancelled and given back.", valueName: "seconds"))
        var shutdownGrace: Double = 10

        func validate() throws {
            if concurrency < 1 { throw ValidationError("--concurrency must be 1 or more.") }
            if !(shutdownGrace >= 0) { throw ValidationError("--shutdown-grace must be 0 seconds or more.") }
            if let metrics, Self.address(metrics) == nil {
                throw ValidationError("--metrics takes HOST:PORT, such as 127.0.0.1:9464.")
            }
            if lease < 3 { throw ValidationError("--lease must be 3 seconds or more.") }
            if !(poll > 0) { throw ValidationError("--poll must be more than 0 seconds.") }
            _ = try headersByOrigin(fileContents: nil)
        }

        func execute() async throws {
            guard database.isPostgres else { throw CommandFailure.needsPostgres(command: "worker") }
            let fileContents = try headerFile.map { try String(contentsOfFile: $0, encoding: .utf8) }
            let headers = try headersByOrigin(fileContents: fileContents)
            let cache = try await database.openPostgres(logger: logging.logger)
            let name = "\(ProcessInfo.processInfo.hostName):\(getpid())"
            StandardError.write(
                "worker \(name) on \(cache.locationDescription): \(Formatting.count(concurrency, "list")) at once, "
                    + "lease \(lease)s")
            var worker = FleetWorker(cache: cache, name: name)
            worker.lease = .seconds(lease)
            worker.poll = .seconds(poll)
            worker.concurrency = concurrency
            worker.untilEmpty = untilEmpty
            worker.shutdownGrace = .milliseconds(Int(shutdownGrace * 1000))
            worker.describe = { Self.reason($0) }
            worker.onEvent = { Self.report($0, worker: name) }
            var syncer = Syncer()
            syncer.logger = logging.logger
            syncer.defaultAccount = AccountOptions(name: nil).declared
            let headersByOrigin = try headers.mapValues(HeaderArgument.parse)
            let (logging, base) = (self.logging, syncer)
            // Each list's sync as `slippers sync` runs it; the library checks its request (`Syncer.run`).
            let service = FleetWorkerService(worker) { job in
                var listSyncer = base
                listSyncer.onEvent = SlippersCommand.Sync.telling(
                    notice: RetryNotice.forRun(job.request.network, verbose: logging.verbose, isTerminal: false))
                return try await SlippersCommand.Sync.styleConflictTold {
                    try await FleetWorker.sync(with: listSyncer, headers: headersByOrigin)(job)
                }
            }
            var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
            if let metrics, let address = Self.address(metrics) {
                let (host, port) = address
                // The one backend of the libraries' swift-metrics, for this process only.
                let registry = PrometheusCollectorRegistry()
                MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
                var server = FleetStatusServer(host: host, port: port, health: worker.health) {
                    registry.emitToString()
                }
                server.onListening = { port in
                    StandardError.write("worker \(name): metrics on http://\(host):\(port)/metrics, health on /health")
                }
                services.append(.init(service: server))
            }
            // Shut down in reverse order: the worker first, then the server, which says 503 meanwhile.
            services.append(.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup))
            var configuration = ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: LoggingOptions.silent)
            configuration.maximumGracefulShutdownDuration = worker.shutdownGrace + .seconds(10)
            try await ServiceGroup(configuration: configuration).run()
        }

        /// The host and port of `HOST:PORT`.
        static func address(_ text: String) -> (host: String, port: Int)? {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (0...65535).contains(port)
            else { return nil }
            let host = String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return host.isEmpty ? nil : (host, port)
        }

        /// Tells what the worker did: a list's summary on stdout, the rest on stderr.
        private static func report(_ event: FleetWorker.Event, worker name: String) {
            switch event {
            case .unreachable(let reason, let wait):
                StandardError.write(
                    "worker \(name): cannot reach the queue: \(reason); trying again in "
                        + "\(Formatting.age(wait.timeInterval))")
            case .reachableAgain:
                StandardError.write("worker \(name): the queue is reachable again")
            case .takenOver(let id):
                StandardError.write(
                    "#\(id) taken again (a worker's lease ran out, or the cache was unreachable); "
                        + "resuming it from its committed pages")
            case .synced(let id, let summary):
                print("#\(id) \(summary)")
            case .failed(let id, let reason):
                StandardError.write("#\(id) failed: \(reason)")
            case .leaseLost(let id):
                StandardError.write("#\(id): its lease ran out and another worker took it; left to that worker")
            case .requeued(let id, let reason):
                StandardError.write("#\(id): cannot reach the cache (\(reason)); it goes back to the queue")
            case .notRecorded(let id, let reason):
                StandardError.write("#\(id): could not record how it ended (\(reason)); its lease runs out")
            case .stopping:
                StandardError.write("worker \(name): stopping; taking no more lists")
            case .released(let id):
                StandardError.write("#\(id): stopped with the worker; back in the queue for another worker")
            }
        }

        /// An error's one line, without the `slippers: ` prefix.
        static func reason(_ error: any Error) -> String {
            String(ErrorReport.line(for: error).dropFirst("slippers: ".count))
        }

        /// The headers of each origin, as `--header` takes them, from --origin-header and the header file.
        func headersByOrigin(fileContents: String?) throws -> [Origin: [String]] {
            var lines = originHeaders
            for line in (fileContents ?? "").split(whereSeparator: \.isNewline) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                lines.append(trimmed)
            }
            var headers: [Origin: [String]] = [:]
            for line in lines {
                guard let separator = line.firstIndex(of: "="),
                    let origin = Origin(parsing: String(line[..<separator])),
                    line[line.index(after: separator)...].contains(":")
                else {
                    throw ValidationError(
                        "A worker's header is 'ORIGIN=Name: value', such as 'https://api.example.com=Authorization: Bearer …'."
                    )
                }
                headers[origin, default: []].append(String(line[line.index(after: separator)...]))
            }
            return headers
        }
    }
}
