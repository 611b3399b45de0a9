import ArgumentParser
import Foundation
import Slippers
import SlippersKit
import SlippersNetworking
import SlippersPostgres
import SlippersStorage
import SlippersStore
import Synchronization

extension SlippersCommand {
    /// Pages an HTTP JSON API into the cache.
    struct Sync: AsyncParsableCommand, ListRequestArguments {
        static let configuration = CommandConfiguration(
            abstract: "Page an HTTP JSON API into the cache, resuming where the last run stopped.",
            discussion: """
                Detects from the first response how the list pages, where its items are and which \
                member is their id, unless the options below say; saves each page in one transaction, \
                so a run killed at any moment resumes after its last saved page; asks page-number and \
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

        /// Syncs the list and returns the summary line.
        ///
        /// - parameter drawsProgress: Whether a progress bar is drawn on stderr when it is a terminal.
        /// - parameter cache: A PostgreSQL cache already open on `--db`, used and left open (a
        ///   worker's, list after list); otherwise the sync opens `--db` and closes it when it ends.
        /// - parameter onPlanned: Called with the list's collection key once it is planned, before any page is fetched.
        func perform(
            drawsProgress: Bool = true, in cache: PostgresCache? = nil, onPlanned: (String) async -> Void = { _ in }
        ) async throws -> String {
            // A URL the client cannot serve fails before any file is made.
            guard ServerConfiguration(baseURL: try parsedURL()) != nil else { throw invalidURL() }
            if let cache { return try await perform(in: cache, drawsProgress: drawsProgress, onPlanned: onPlanned) }
            let storage = try await database.openStorageCreatingIfNeeded(logger: logging.logger)
            // The cache is closed when the sync ends: a worker syncs list after list, each on its own connections.
            do {
                let line = try await perform(in: storage, drawsProgress: drawsProgress, onPlanned: onPlanned)
                try? await storage.close()
                return line
            } catch {
                try? await storage.close()
                throw error
            }
        }

        func perform(
            in storage: any CacheStorage, drawsProgress: Bool, onPlanned: (String) async -> Void
        ) async throws -> String {
            let url = try parsedURL()
            guard let configuration = ServerConfiguration(baseURL: url) else { throw invalidURL() }
            let requestRetries = Mutex(0)
            var client = APIClient(
                configuration: configuration,
                options: APIClient.Options(
                    transport: network.transport(), retryPolicy: retrying.requestPolicy,
                    originPolicy: try origins.policy(),
                    // Every worker on a PostgreSQL cache shares each origin's budget through it.
                    rateLimiter: RateLimiter(
                        store: (storage as? PostgresCache).map {
                            PostgresRateBudgets(cache: $0, logger: logging.logger)
                        }
                    )))
            // Without --verbose, whose log says as much, each retry is one line on stderr.
            let notice =
                logging.verbose
                ? nil : RetryNotice(attemptsPerRequest: retrying.retries + 1, retryFor: .seconds(retrying.retryFor))
            client.onRetry = { event in
                requestRetries.withLock { $0 += 1 }
                notice?.requestRetry(event)
            }
            client.onRateLimitWait = { notice?.rateLimitWait($0) }
            client.logger = logging.logger
            let concurrency = concurrent.controller()
            client = client.reportingThrottles(to: concurrency)
            let headers = try parsedHeaders()
            let overrides = shape.overrides(posted: posted, postedStyle: try postedStyle())
            // A new list's first request gets its own retries only: a list that cannot be reached ends
            // here. --retry-for keeps a list already under way alive.
            let plan = try await Self.plan(
                storage: storage, client: client, url: url, headers: headers, overrides: overrides,
                itemType: itemType, refresh: refresh, account: account.declared)

            await onPlanned(plan.collection.key)
            if revalidate { return try await runRevalidation(plan, in: storage) }
            if let line = try await refreshedHead(
                plan, in: storage, drawsProgress: drawsProgress, retries: { requestRetries.withLock { $0 } })
            {
                return line
            }
            if let settings = incremental.request {
                return try await runIncremental(
                    plan, settings: settings, in: storage, concurrency: concurrency, notice: notice,
                    drawsProgress: drawsProgress, retries: { requestRetries.withLock { $0 } })
            }
            let walk = Walk(
                storage: storage, plan: plan, concurrency: concurrency, notice: notice,
                drawsProgress: drawsProgress)
            guard let cache = storage as? PostgresCache else {
                let progress = try await self.walk(walk, source: plan.source)
                try await recordNewestFirst(plan.collection.key, in: storage)
                return try await summary(progress, of: walk, retries: requestRetries.withLock { $0 })
            }
            // On PostgreSQL the list's lease holder walks it; workers waiting for the lease fetch
            // its pages ahead, when they can be named by index, and the lease holder takes them.
            let key = plan.collection.key
            let list = SharedList(
                collection: key,
                fingerprint: Self.fingerprint(url: url, style: plan.collection.style, headers: headers))
            // A list started meanwhile with another style than this walk's is not this walk's to continue.
            let onWait: @Sendable () -> Void = {
                StandardError.write("waiting for another worker syncing \(key.shortenedForErrors)")
            }
            let synced = try await cache.syncingSharedList(
                list, source: plan.source,
                plannedStyle: plan.resumesStoredStyle ? plan.stored?.style : plan.collection.style,
                refresh: refresh, concurrency: concurrency.maximum, onWait: onWait
            ) { shared in
                try await self.walk(walk, source: shared)
            }
            try await recordNewestFirst(key, in: storage)
            var line = try await summary(synced.result, of: walk, retries: requestRetries.withLock { $0 })
            if synced.pagesFetchedByOthers > 0 {
                line += " (\(Formatting.count(synced.pagesFetchedByOthers, "page")) fetched by other workers)"
            }
            if synced.pagesFetchedAhead > 0 {
                line += " (\(Formatting.count(synced.pagesFetchedAhead, "page")) fetched ahead for another worker)"
            }
            return line
        }

        /// The digest of how a list's pages are asked for: its URL, its style and its headers.
        /// Never a credential: a digest of it.
        static func fingerprint(url: URL, style: String?, headers: [String: String]) -> String {
            let sent = headers.map { "\($0.key.lowercased()): \($0.value)" }.sorted().joined(separator: "\n")
            let parts = ["url": url.absoluteString, "style": style ?? "", "headers": sent]
            return PageCaching.varyKey(for: Array(parts.keys)) { parts[$0] } ?? ""
        }

        /// What a walk of the list needs besides its source.
        private struct Walk {
            var storage: any CacheStorage
            var plan: SyncPlan
            var concurrency: AdaptiveConcurrency
            var notice: RetryNotice?
            var drawsProgress: Bool
        }

        /// Walks the list from `source` into the storage.
        private func walk<Source: PageSource>(_ walk: Walk, source: Source) async throws
            -> CollectionSync<Source>.Progress where Source.Item == RawItem
        {
            let plan = walk.plan
            let itemsBefore = refresh ? 0 : plan.stored?.itemCount ?? 0
            let pagesBefore = refresh ? 0 : plan.stored?.currentPageCount ?? 0
            var bar = walk.drawsProgress && ProgressBar.isStandardErrorATerminal ? ProgressBar() : nil
            let clock = ContinuousClock()
            let start = clock.now
            var sync = CollectionSync(storage: walk.storage, source: source, collection: plan.collection)
            sync.keepsNoStorePages = keepNoStore
            sync.concurrency = walk.concurrency
            let recorded = try await walk.storage.newestFirst(plan.collection.key)
            sync.newestFirst = options.newestFirst || recorded == true
            // On PostgreSQL, workers waiting for the list fetch its pages ahead: the walk is not one page at a time.
            if !noReverseRead, !(walk.storage is PostgresCache) {
                sync.readsAgainInReverse = plan.readsAgainInReverse(
                    concurrency: walk.concurrency.maximum, newestFirst: sync.newestFirst)
            }
            switch plan.repeatedSecondPage {
            case .fails: sync.repeatedSecondPage = .fails
            case .endsTheList(let style): sync.repeatedSecondPage = .endsTheList(style: style)
            }
            if let notice = walk.notice { sync.onPageRetry = { notice.pageRetry(index: $0, error: $1, wait: $2) } }
            let limits = CollectionSync<Source>.Limits(maxPages: maxPages, maxItems: maxItems, stallLimit: stallLimit)
            do {
                let progress = try await repeatedPageTold(plan) {
                    try await sync.run(limits: limits, refresh: refresh, retryBudget: retrying.pageBudget) {
                        progress in
                        let seconds = start.duration(to: clock.now).timeInterval
                        bar?.draw(
                            ProgressBar.Figures(
                                pages: pagesBefore + progress.pagesFetched,
                                items: itemsBefore + progress.itemsFetched,
                                total: progress.total,
                                itemsPerSecond: seconds > 0 ? Double(progress.itemsFetched) / seconds : 0))
                    }
                }
                bar?.finish()
                return progress
            } catch {
                bar?.finish()
                throw error
            }
        }

        /// Runs a walk; a page 2 that repeats page 1 of a list whose first response showed that it
        /// pages is told with what it showed and the options that describe the list.
        private func repeatedPageTold<Result>(
            _ plan: SyncPlan, _ body: () async throws -> Result
        ) async throws -> Result {
            do {
                return try await body()
            } catch let error as CacheError where error.code == .pageRepeated && error.pageIndex == 1 {
                // Only a way of asking that detection chose is in doubt: a next URL or cursor is the server's own.
                let chosen: Bool
                switch plan.style.kind {
                case .pageNumber, .offset, .cursor: chosen = true
                default: chosen = false
                }
                guard chosen, let detection = plan.detection, !detection.hints.isEmpty else { throw error }
                throw CommandFailure.pageRepeatedDespiteHints(
                    collection: error.collection ?? "", hints: detection.hints, style: plan.style,
                    tried: detection.tried)
            }
        }

        /// The final line of a walk, with the retries of its requests and pages.
        private func summary<Source: PageSource>(
            _ progress: CollectionSync<Source>.Progress, of walk: Walk, retries requestRetries: Int
        ) async throws -> String {
            let key = walk.plan.collection.key
            let cached = try await walk.storage.collection(key)
            let retries = requestRetries + progress.pageRetries
            let line = summary(
                progress, key: key, location: walk.storage.locationDescription,
                cachedItems: cached?.itemCount ?? 0, retries: retries)
            guard progress.endReached, let cached else { return line }
            var shortfall = IncompleteList(
                collection: key, announced: cached.total ?? 0, stored: cached.itemCount, pages: cached.currentPageCount,
                firstPageItems: walk.plan.detection?.itemCount, style: walk.plan.style,
                repeatedItems: progress.repeatedItems, summary: progress.pagesFetched > 0 ? line : nil)
            // A list that announced its pages, not its items: short of them is short of the list.
            if let pages = progress.announcedPageCount, cached.currentPageCount < pages {
                shortfall.announcedPages = pages
                throw shortfall
            }
            if cached.isIncomplete { throw shortfall }
            return line
        }

        /// The final line: what this run fetched, where it started, whether the list is complete, and the retries.
        private func summary<Source: PageSource>(
            _ progress: CollectionSync<Source>.Progress, key: String, location: String, cachedItems: Int,
            retries: Int
        ) -> String {
            let line = summaryWithoutRetries(progress, key: key, location: location, cachedItems: cachedItems)
            return retries == 0 ? line : line + " (\(Formatting.count(retries, "retry", plural: "retries")))"
        }

        private func summaryWithoutRetries<Source: PageSource>(
            _ progress: CollectionSync<Source>.Progress, key: String, location path: String,
            cachedItems: Int
        ) -> String {
            if progress.pagesFetched == 0, progress.endReached {
                return "\(key) is complete in \(path) (\(Formatting.count(progress.pagesCached, "page")), "
                    + "\(Formatting.count(cachedItems, "item"))); nothing fetched, use --refresh to fetch it again"
            }
            var line =
                "synced \(Formatting.count(progress.itemsFetched, "item")) in "
                + "\(Formatting.count(progress.pagesFetched, "page"))"
            if progress.resumed { line += " (resumed after \(Formatting.count(progress.startIndex, "cached page")))" }
            if progress.repeatedItems > 0 {
                line += " (\(Formatting.count(progress.repeatedItems, "repeated id")) stored once)"
            }
            if progress.listMoved {
                line += " (the list changed while it was read"
                if progress.pagesRefetched > 0 {
                    line +=
                        "; read \(Formatting.count(progress.pagesRefetched, "page")) again and found "
                        + "\(Formatting.count(progress.itemsRecovered, "item")) not cached"
                }
                line += ")"
            }
            line += " of \(key) into \(path)"
            if progress.endedOnARepeatedFirstPage {
                line +=
                    " — end reached, \(Formatting.count(cachedItems, "item")) cached; page 2 repeated page 1 "
                    + "exactly, so the list is one page (as --style singlePage)"
            } else if progress.endReached {
                line += " — end reached, \(Formatting.count(cachedItems, "item")) cached"
            } else if let maxPages, progress.pagesFetched >= maxPages {
                line += " — stopped after --max-pages \(maxPages); run again to continue"
            } else if let maxItems, progress.itemsFetched >= maxItems {
                line += " — stopped after --max-items \(maxItems); run again to continue"
            } else {
                line += " — stopped before the end; run again to continue"
            }
            return line
        }
    }
}
