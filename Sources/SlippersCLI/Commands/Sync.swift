import ArgumentParser
import Foundation
import Slippers
import SlippersKit
import SlippersNetworking
import SlippersPostgres
import SlippersSQLite
import SlippersStorage
import Synchronization

extension SlippersCommand {
    /// Pages an HTTP JSON API into the cache.
    struct Sync: AsyncParsableCommand, ListRequestArguments {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Page an HTTP JSON API into the cache, resuming where the last run stopped.",
            discussion: """
                Detects from the first response how the list pages, where its items are and which \
                member is their id, unless the options below say; saves each page whole in one transaction \
                (pages that arrive together in the same one), so a run killed at any moment resumes after its last saved page; asks page-number and \
                offset lists for --concurrency pages at once; and reads a list that moved while it \
                was read again where it may have hidden items. A complete list is fetched again only \
                with --refresh or --revalidate, or from its first page when its new items come first. \
                The --header values go only to the URL's origin; transient failures are retried; a \
                walk that ends short of the total its server announced exits 3. A list is kept for its \
                account (--account, else one the credentials of --header derive), never another's. The command-line \
                guide (SlippersKit's CommandLine article) tells the rest: lists that change while \
                they are read, retries, origins, PostgreSQL.

                Examples:

                    slippers sync https://api.example.com/posts --header "Authorization: $AUTH"
                    slippers sync https://api.example.com/posts --style offset --page-size 100
                    slippers sync https://api.example.com/posts \\
                        --incremental updated_at --since-param updated_since
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var logging: LoggingOptions

        @Argument(help: "The URL of the list's first page (http or https).")
        var url: String

        @OptionGroup(title: "How the list pages (detected unless given)") var shape: ListShapeOptions

        @OptionGroup(title: "Lists asked for by POST") var posted: PostedStyleOptions

        @Option(
            name: .customLong("header"),
            help: ArgumentHelp(
                "An HTTP header for every request, 'Name: value'; repeatable. Never stored.", valueName: "header"))
        var headers: [String] = []

        @OptionGroup(title: "What a run does") var options: SyncOptions

        @Flag(
            help: ArgumentHelp(
                "Do not read a page-number list with a total again from its last page after reading it one "
                    + "page at a time; its last page is then read right after its first."))
        var noReverseRead = false

        @OptionGroup(title: "Incremental sync") var incremental: IncrementalOptions

        @OptionGroup(title: "Requests") var network: NetworkOptions

        @OptionGroup(title: "Requests") var origins: OriginOptions

        @OptionGroup(title: "Requests") var retrying: RetryOptions

        @OptionGroup(title: "What a run does") var concurrent: ConcurrencyOptions

        func validate() throws {
            _ = try parsedURL()
            _ = try parsedHeaders()
            try options.validate()
            if incremental.field != nil, revalidate {
                throw ValidationError("--incremental and --revalidate cannot be used together.")
            }
            try shape.validate(posted: posted)
        }

        // The run's options, by their names in the command.
        var maxPages: Int? { options.maxPages }
        var maxItems: Int? { options.maxItems }
        var stallLimit: Int { options.stallLimit }
        var refresh: Bool { options.refresh }
        var revalidate: Bool { options.revalidate }
        var keepNoStore: Bool { options.keepNoStore }
        var itemType: String? { options.itemType }

        func run() async throws {
            try await ErrorReport.reportingAsync { print(try await perform()) }
        }

        /// The request these options give, with the account of `--account` or `SLIPPERS_ACCOUNT`.
        func request() throws -> SyncRequest {
            var request = try SyncRequest(
                url: url, shape: shape, posted: posted, options: options, network: network, origins: origins,
                retrying: retrying, concurrent: concurrent, incremental: incremental)
            request.account = account.declared?.description
            return request
        }

        /// Syncs the list into `--db` with the library's ``Syncer`` and returns the summary line.
        func perform() async throws -> String {
            // A URL the client cannot serve fails before any file is made.
            guard ServerConfiguration(baseURL: try parsedURL()) != nil else { throw invalidURL() }
            let request = try request()
            let headers = try parsedHeaders()
            let storage = try await database.openStorageCreatingIfNeeded(logger: logging.logger)
            let bar = ProgressBar.isStandardErrorATerminal ? ProgressBar.Shared() : nil
            var syncer = Syncer()
            syncer.transport = network.transport()
            syncer.logger = logging.logger
            syncer.readsAgainInReverse = !noReverseRead
            syncer.onEvent = Self.telling(
                notice: RetryNotice.forRun(request.network, verbose: logging.verbose), bar: bar)
            do {
                let report = try await Self.styleConflictTold {
                    try await syncer.run(request, into: storage, headers: headers)
                }
                bar?.finish()
                try? await storage.close()
                return report.summary
            } catch let error as NoStorePageError {
                bar?.finish()
                try? await storage.close()
                throw CommandFailure.noStoreNotKept(error, command: KeepNoStoreCommand.line())
            } catch {
                bar?.finish()
                try? await storage.close()
                throw error
            }
        }

        /// Tells a run's events on stderr: each retry and wait (`notice`), a wait for another
        /// worker's lease, and the progress on `bar`.
        static func telling(notice: RetryNotice?, bar: ProgressBar.Shared? = nil) -> @Sendable (SyncEvent) -> Void {
            let started = ContinuousClock.now
            return { event in
                switch event {
                case .requestRetry(let retry): notice?.requestRetry(retry)
                case .rateLimitWait(let wait): notice?.rateLimitWait(wait)
                case .pageRetry(let index, let error, let wait):
                    notice?.pageRetry(index: index, error: error, wait: wait)
                case .waitingForLease(let key):
                    StandardError.write("waiting for another worker syncing \(key.shortenedForErrors)")
                case .progress(let progress):
                    let seconds = started.duration(to: .now).timeInterval
                    bar?.draw(
                        ProgressBar.Figures(
                            pages: progress.pagesCached, items: progress.itemsCached, total: progress.total,
                            itemsPerSecond: seconds > 0 ? Double(progress.itemsFetched) / seconds : 0))
                }
            }
        }

        /// Runs `body`; a conflict of styles is told in the command's words.
        static func styleConflictTold<Result>(_ body: () async throws -> Result) async throws -> Result {
            do {
                return try await body()
            } catch let error as SyncPlanError where error.code == .styleConflict {
                guard let stored = error.storedStyle, let requested = error.requestedStyle else { throw error }
                throw CommandFailure.styleConflict(
                    list: error.list ?? "", stored: stored.styleName,
                    requested: requested.styleName)
            }
        }
    }
}
