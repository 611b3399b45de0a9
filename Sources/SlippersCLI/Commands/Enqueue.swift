import ArgumentParser
import Foundation
import Slippers
import SlippersPostgres

extension SlippersCommand {
    /// Adds lists to the fleet's queue in a PostgreSQL cache.
    struct Enqueue: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "enqueue",
            abstract: "Add lists to the queue of a PostgreSQL cache, for `slippers worker` processes to sync.",
            discussion: """
                Queues each URL with the options given, those `slippers sync` takes, anywhere on the \
                line: a worker syncs the list as `sync` would. A list already queued with the same \
                options is made pending again, due now, unless a worker holds it. Headers are never \
                queued: give credentials to the workers (worker --origin-header or --header-file). \
                With --every, a list is synced again that long after each run (±10 %), and one whose \
                runs fail waits longer (30 s doubled per failure in a row, at most --every and 1 h). \
                The command-line guide (SlippersKit's CommandLine article) tells the rest.

                Examples:

                    slippers enqueue --db postgres://db/cache https://api.example.com/posts
                    slippers enqueue --db "$DB" https://api.example.com/posts --every 15m
                    slippers enqueue --db "$DB" --style pageNumber --page-size 100 \\
                        https://api.example.com/posts https://api.example.com/comments
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountOptions

        @Argument(help: ArgumentHelp("The URLs of the lists' first pages (http or https).", valueName: "url"))
        var urls: [String]

        @OptionGroup(title: "How the lists page (detected unless given)") var shape: ListShapeOptions

        @OptionGroup(title: "Lists asked for by POST") var posted: PostedStyleOptions

        @OptionGroup(title: "What a run does") var options: SyncOptions

        @OptionGroup(title: "Incremental sync") var incremental: IncrementalOptions

        @OptionGroup(title: "Requests") var network: NetworkOptions

        @OptionGroup(title: "Requests") var origins: OriginOptions

        @OptionGroup(title: "Requests") var retrying: RetryOptions

        @OptionGroup(title: "What a run does") var concurrent: ConcurrencyOptions

        @Option(
            help: ArgumentHelp(
                "Sync the lists again this long after each run, such as 90s, 15m, 1h or 2d (±10 %).",
                valueName: "duration"))
        var every: Age?

        /// Taken only to be refused: a header is a credential, never queued.
        @Option(name: .customLong("header"), help: .hidden)
        var headers: [String] = []

        func validate() throws {
            if let every, !(every.seconds > 0) {
                throw ValidationError("--every must be more than 0, such as 90s, 15m, 1h or 2d.")
            }
            if !headers.isEmpty {
                throw ValidationError("Headers are never queued: give them to the workers with --origin-header.")
            }
            for url in urls where CredentialQuery.masking(url) != url {
                throw ValidationError(
                    "\(CredentialQuery.masking(url)) carries a credential in its query, and the queue stores "
                        + "nothing secret: sync that list with `slippers sync`, or give the credential to the workers "
                        + "as a header (worker --origin-header).")
            }
            // Each request must be one a worker syncs: checked now by the library, as the queue checks it.
            for request in try requests() { try request.validate(queued: true) }
        }

        /// The lists' requests, in the order of their URLs.
        func requests() throws -> [SyncRequest] {
            try urls.map { url in
                var request = try SyncRequest(
                    url: url, shape: shape, posted: posted, options: options, network: network, origins: origins,
                    retrying: retrying, concurrent: concurrent, incremental: incremental)
                request.schedule = every.map { SyncRequest.Schedule(every: $0.seconds) }
                request.account = account.declared?.description
                return request
            }
        }

        func execute() async throws {
            guard database.isPostgres else { throw CommandFailure.needsPostgres(command: "enqueue") }
            let requests = try requests()
            let cache = try await database.openPostgres(logger: LoggingOptions.silent)
            let ids = try await cache.enqueue(requests)
            for (id, url) in zip(ids, urls) { print("queued #\(id) \(url)") }
        }
    }
}
