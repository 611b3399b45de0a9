import ArgumentParser
import Foundation
import Logging
import Slippers
import SlippersNetworking
import SlippersPostgres
import Synchronization

extension SlippersCommand {
    /// Takes lists from the queue of a PostgreSQL cache and syncs them, under a lease it renews.
    struct Worker: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
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
                finish for that reason goes back to the queue.

                Credentials are given per origin, never stored: --origin-header \
                'https://api.example.com=Authorization: Bearer TOKEN' (repeatable), or \
                --header-file FILE with one ORIGIN=Name: value per line (# starts a comment). Each \
                list gets the headers of its own origin only.

                One summary line per list goes to stdout, prefixed with its number in the queue.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var logging: LoggingOptions

        @Flag(help: "Exit once no list is pending or held by a worker (default: wait for new lists).")
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

        func validate() throws {
            if concurrency < 1 { throw ValidationError("--concurrency must be 1 or more.") }
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
            let context = WorkerContext(
                cache: cache, logger: logging.logger, name: name, headers: headers, database: database.resolvedPath(),
                lease: .seconds(lease), poll: .seconds(poll), untilEmpty: untilEmpty)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency { group.addTask { try await context.takeLists() } }
                try await group.waitForAll()
            }
        }

        /// The `--header` arguments of each origin, from --origin-header and the header file.
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
                headers[origin, default: []] += ["--header", String(line[line.index(after: separator)...])]
            }
            return headers
        }
    }
}

/// What each of a worker's loops shares.
private struct WorkerContext: Sendable {
    let cache: PostgresCache
    let logger: Logger
    let name: String
    let headers: [Origin: [String]]
    let database: String
    let lease: Duration
    let poll: Duration
    let untilEmpty: Bool

    /// Takes lists until the queue is empty (with --until-empty) or the worker is stopped.
    ///
    /// The lists this loop takes are synced on a cache of its own, opened on its first list and
    /// kept: one connection, whose statements PostgreSQL has planned already, list after list.
    func takeLists() async throws {
        var syncing: PostgresCache?
        do {
            try await takeLists(syncingOn: &syncing)
        } catch {
            try? await syncing?.close()
            throw error
        }
        try? await syncing?.close()
    }

    private func takeLists(syncingOn syncing: inout PostgresCache?) async throws {
        var failures = 0
        while !Task.isCancelled {
            let claim: QueueClaim?
            do {
                claim = try await cache.claim(worker: name, lease: lease)
                if failures > 0 { StandardError.write("worker \(name): the queue is reachable again") }
                failures = 0
            } catch {
                failures += 1
                let wait = min(30.0, 0.5 * pow(2.0, Double(min(failures, 8) - 1)))
                StandardError.write(
                    "worker \(name): cannot reach the queue: \(Self.reason(error)); trying again in "
                        + "\(Formatting.age(wait))")
                try await Task.sleep(for: .seconds(wait))
                continue
            }
            guard let claim else {
                if untilEmpty, (try? await cache.hasUnfinishedLists()) == false { return }
                try await Task.sleep(for: poll)
                continue
            }
            if syncing == nil { syncing = try? await PostgresCache.open(cache.location, logger: logger) }
            await sync(claim, in: syncing)
        }
    }

    /// Syncs one list under its lease, renewed every third of it, and records how it ended.
    ///
    /// - parameter syncing: The cache the list is synced on; `nil` opens one for this list.
    private func sync(_ claim: QueueClaim, in syncing: PostgresCache?) async {
        var arguments = [claim.url] + claim.options + ["--db", database]
        if let url = URL(string: claim.url), let origin = Origin(url) { arguments += headers[origin] ?? [] }
        let command: SlippersCommand.Sync
        do {
            command = try SlippersCommand.Sync.parse(arguments)
        } catch {
            await finish(claim, result: nil, error: "its options are not sync's: \(error)")
            return
        }
        if claim.isTakeover {
            StandardError.write(
                "#\(claim.id) taken again (a worker's lease ran out, or the cache was unreachable); "
                    + "resuming it from its committed pages")
        }
        let (cache, id, name) = (self.cache, claim.id, self.name)
        let running = Task {
            try await command.perform(drawsProgress: false, in: syncing) { key in
                try? await cache.recordCollection(key, of: id)
            }
        }
        let lost = Mutex(false)
        let lease = self.lease
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: lease / 3)
                guard !Task.isCancelled else { return }
                if (try? await cache.renewLease(of: id, worker: name, lease: lease)) == false {
                    lost.withLock { $0 = true }
                    running.cancel()
                    return
                }
            }
        }
        defer { heartbeat.cancel() }
        do {
            let line = try await running.value
            await finish(claim, result: line, error: nil)
            print("#\(id) \(line)")
        } catch {
            if lost.withLock({ $0 }) {
                StandardError.write("#\(id): its lease ran out and another worker took it; left to that worker")
            } else if error is PostgresCacheError {
                let reason = Self.reason(error)
                StandardError.write("#\(id): cannot reach the cache (\(reason)); it goes back to the queue")
                try? await cache.requeue(id, worker: name, reason: reason)
            } else {
                let reason = Self.reason(error)
                StandardError.write("#\(id) failed: \(reason)")
                await finish(claim, result: nil, error: reason)
            }
        }
    }

    private func finish(_ claim: QueueClaim, result: String?, error: String?) async {
        do {
            try await cache.finish(claim.id, worker: name, result: result, error: error)
        } catch {
            StandardError.write(
                "#\(claim.id): could not record how it ended (\(Self.reason(error))); its lease runs out")
        }
    }

    /// An error's one line, without the `slippers: ` prefix.
    static func reason(_ error: any Error) -> String {
        String(ErrorReport.line(for: error).dropFirst("slippers: ".count))
    }
}
