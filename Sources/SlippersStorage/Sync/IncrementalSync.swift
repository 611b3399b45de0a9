import Foundation
import Slippers
import Tracing

/// Keeps a list current by asking only for the items changed since the last run, as dlt's
/// `incremental` does: a watermark per list (the greatest value of a field such as `updated_at`),
/// sent back in a parameter such as `updated_since`, less a lookback.
///
/// The first run walks the whole list into ``list`` (or, with ``Settings/initialValue``, the
/// list of items changed since that value) and takes the greatest value of ``Settings/field`` among
/// its items as the watermark. Each later run asks ``source`` for the items changed since the
/// watermark less ``Settings/lookback`` (which catches clock skew and late commits), walks those
/// pages into a list of their own (``changesKey``), and when they are all saved merges them by
/// id: a known id gets the server's new JSON (saving a page writes it), a new id joins the end of
/// the list. The watermark moves only then. A run killed midway leaves the old watermark and the
/// value it asked from; the next run resumes that walk after its last saved page, so the window is
/// never lost.
///
/// Items deleted on the server are not seen by an incremental run: a list that asks only for
/// changes cannot say what left it. Sync it again from its first page to drop them.
///
/// For example:
///
/// ```swift
/// let sync = IncrementalSync(
///     storage: cache, list: posts, settings: .init(field: "updated_at")
/// ) { since in
///     source(url: since.map { "https://api.example.com/posts?updated_since=\($0)" } ?? allPosts)
/// }
/// let outcome = try await sync.run()
/// print(outcome.newItems, outcome.updatedItems, outcome.watermark ?? "")
/// ```
public struct IncrementalSync<Source: PageSource>: Sendable where Source.Item == RawItem {
    /// Which field is the watermark, how far back each run asks, and what the first run asks from.
    public struct Settings: Hashable, Sendable {
        /// The key path of the item member whose greatest value is the watermark, such as
        /// `updated_at` or `meta.modified` (dots separate members).
        public var field: String
        /// How far before the watermark each run asks from: a date less this duration, a number
        /// less its seconds; ``defaultLookback`` unless set.
        public var lookback: Duration
        /// The value the first run asks from, instead of walking the whole list; sent as it is.
        public var initialValue: String?

        /// The lookback unless one is given: 5 minutes, for clocks that differ and writes committed late.
        public static var defaultLookback: Duration { .seconds(300) }

        /// Creates settings.
        public init(field: String, lookback: Duration = Settings.defaultLookback, initialValue: String? = nil) {
            self.field = field
            self.lookback = lookback
            self.initialValue = initialValue
        }
    }

    /// What a run asked for.
    public enum Phase: Hashable, Sendable {
        /// The whole list (or the items changed since the initial value): the list had no watermark.
        case wholeList
        /// The items changed since the watermark less the lookback.
        case changes
    }

    /// What a run did.
    public struct Outcome: Sendable {
        /// What the run asked for.
        public var phase: Phase
        /// The walk of the pages this run asked for: of the list, or of its changes.
        public var progress: SyncProgress
        /// The value the run asked from; `nil` when it walked the whole list.
        public var since: String?
        /// The items that joined the list: every item of a first run, the new ids of a later one.
        public var newItems = 0
        /// The items the list held that the run wrote again with the server's copy (the lookback
        /// may bring some that did not change).
        public var updatedItems = 0
        /// The watermark after the run: moved when the run completed, the old one otherwise.
        public var watermark: String?
        /// Whether the list of changes ended announcing more items than the run found: items changed
        /// while it was read, on pages it had passed. What it found is merged, and the watermark
        /// stays, so that the next run asks for the same window again.
        public var listMovedWhileRead = false

        /// Whether the run walked every page it asked for, merged them, and moved the watermark.
        public var isComplete: Bool { progress.endReached && !listMovedWhileRead }
    }

    /// Where the pages go, as far as an incremental sync needs it: its sync side, the items it
    /// reads back, and the eviction of the changes it walked.
    let storage: any SyncStorage & CacheReader & CacheAdministration
    /// The list the list is filed under.
    public let list: ListDescriptor
    /// Which field is the watermark, the lookback and the initial value.
    let settings: Settings
    /// The source of the list's pages: the whole list for `nil`, otherwise the items changed since the value.
    let source: @Sendable (_ since: String?) -> Source

    /// Whether pages whose response said `Cache-Control: no-store` are saved all the same; see ``ListSync/keepsNoStorePages``.
    public var keepsNoStorePages = false
    /// How many pages are in flight at once; see ``ListSync/concurrency``.
    public var concurrency: AdaptiveConcurrency?
    /// Called when a failing page is fetched again; see ``ListSync/onPageRetry``.
    public var onPageRetry: (@Sendable (_ index: Int, _ error: any Error, _ wait: Duration) -> Void)?
    /// What a second page that repeats the first means on the first run; see ``ListSync/repeatedSecondPage``.
    public var repeatedSecondPage = ListSync<Source>.RepeatedSecondPage.fails
    /// Where the run's spans go: a `slippers.list` span for the run, over the walk's own; see ``ListSync/tracer``.
    public var tracer: any Tracer

    /// Creates an incremental sync of `list` in any backend.
    public init(
        storage: any SyncStorage & CacheReader & CacheAdministration, list: ListDescriptor,
        settings: Settings,
        source: @escaping @Sendable (_ since: String?) -> Source
    ) {
        self.storage = storage
        self.list = list
        self.settings = settings
        self.source = source
        self.tracer = InstrumentationSystem.tracer
    }

    /// The key of the list a run's changes are walked into before they are merged: the list's key and `#changes`.
    var changesKey: String { list.key + "#changes" }

    /// Walks the whole list or its changes, merges what it brought, and moves the watermark when it completes.
    ///
    /// - parameter limits: The most pages and items this run fetches; a run stopped by them is not
    ///   complete, keeps the old watermark and continues on the next run.
    /// - parameter refresh: Forget the watermark and walk the whole list again from its first page.
    /// - parameter retryBudget: How long a failing page is tried again.
    /// - parameter onPage: Called after each saved page.
    /// - returns: What the run did.
    /// - throws: What ``ListSync/run(limits:refresh:retryBudget:onPage:)`` throws.
    ///   Pages saved before the error stay saved, and the watermark does not move.
    public func run(
        limits: SyncRequest.Limits = SyncRequest.Limits(), refresh: Bool = false,
        retryBudget: RetryBudget = .none, onPage: (SyncProgress) -> Void = { _ in }
    ) async throws -> Outcome {
        try await SyncTracing.list(
            tracer, operation: "incremental", list: list,
            counting: { ($0.progress.pagesFetched, $0.newItems + $0.updatedItems) },
            running: {
                try await runTraced(limits: limits, refresh: refresh, retryBudget: retryBudget, onPage: onPage)
            })
    }

    private func runTraced(
        limits: SyncRequest.Limits, refresh: Bool, retryBudget: RetryBudget,
        onPage: (SyncProgress) -> Void
    ) async throws -> Outcome {
        let key = list.key
        var stored = try await storage.watermark(of: key).flatMap { $0.field == settings.field ? $0 : nil }
        if refresh {
            stored = nil
            try await storage.saveWatermark(nil, of: key)
            try await removeChanges()
        }
        let cached = try await storage.list(key)
        if let stored, let value = stored.value, let cached, cached.endReached {
            return try await runChanges(
                after: value, pendingSince: stored.pendingSince, in: cached, limits: limits,
                retryBudget: retryBudget, onPage: onPage)
        }
        // No watermark, or a list not walked to its end: the whole list (or what changed since the initial value).
        var since: String?
        if let stored, stored.value == nil {
            since = stored.pendingSince
        } else if cached == nil || refresh {
            since = settings.initialValue
        }
        // A list walked whole that gave no watermark (no item had the field) is walked whole again.
        let walksAgain =
            refresh || (cached?.endReached == true && stored != nil && stored?.value == nil && since == nil)
        if stored?.value != nil || stored?.pendingSince != since {
            try await storage.saveWatermark(SyncWatermark(field: settings.field, pendingSince: since), of: key)
        }
        let progress = try await listSync(of: source(since), into: list, repeatedSecondPage).run(
            limits: limits, refresh: walksAgain, retryBudget: retryBudget, onPage: onPage)
        var outcome = Outcome(phase: .wholeList, progress: progress, since: since, newItems: progress.itemsFetched)
        guard progress.endReached else { return outcome }
        var greatest: String?
        try await storage.forEachItem(in: key) { item in
            greatest = Self.greatest(greatest, item, field: settings.field)
        }
        outcome.watermark = greatest ?? since
        try await storage.saveWatermark(SyncWatermark(field: settings.field, value: outcome.watermark), of: key)
        return outcome
    }

    /// Walks the items changed since `value` less the lookback (or since `pendingSince`, for a run
    /// that resumes) and merges them into the list.
    private func runChanges(
        after value: String, pendingSince: String?, in cached: ListInfo,
        limits: SyncRequest.Limits, retryBudget: RetryBudget,
        onPage: (SyncProgress) -> Void
    ) async throws -> Outcome {
        let key = list.key
        let since = pendingSince ?? SyncWatermark.lowering(value, by: settings.lookback)
        if pendingSince == nil {
            // A walk of an earlier run that completed is gone before this one starts.
            try await removeChanges()
            try await storage.saveWatermark(
                SyncWatermark(field: settings.field, value: value, pendingSince: since), of: key)
        }
        let changes = ListDescriptor(key: changesKey, itemType: cached.itemType, style: cached.style)
        let progress = try await listSync(of: source(since), into: changes, .fails).run(
            limits: limits, retryBudget: retryBudget, onPage: onPage)
        var outcome = Outcome(phase: .changes, progress: progress, since: since, watermark: value)
        guard progress.endReached else { return outcome }
        // Items that joined the list of changes on pages already read shift it, and the run ends short of its total.
        outcome.listMovedWhileRead = try await storage.list(changesKey)?.isIncomplete == true
        var greatest: String? = value
        var returned: [RawItem] = []
        try await storage.forEachItem(in: changesKey) { item in
            returned.append(item)
            greatest = Self.greatest(greatest, item, field: settings.field)
        }
        // The ids the list does not hold yet join its end, as one more page.
        let current = try await storage.list(key) ?? cached
        let listed = current.currentPageCount
        var fresh: [RawItem] = []
        let unlisted = try await storage.unlistedCount(of: Set(returned.map(\.key)), before: listed, in: key)
        if unlisted == returned.count {
            fresh = returned
        } else if unlisted > 0 {
            for item in returned {
                if try await storage.unlistedCount(of: [item.key], before: listed, in: key) == 1 { fresh.append(item) }
            }
        }
        if !fresh.isEmpty {
            let page = Page(items: fresh, total: current.total.map { _ in current.itemCount + fresh.count })
            _ = try await storage.savePage(
                page, at: listed,
                in: ListDescriptor(key: key, itemType: current.itemType, style: current.style))
        }
        outcome.newItems = fresh.count
        outcome.updatedItems = returned.count - fresh.count
        if !outcome.listMovedWhileRead { outcome.watermark = greatest }
        try await storage.saveWatermark(SyncWatermark(field: settings.field, value: outcome.watermark), of: key)
        try await removeChanges()
        return outcome
    }

    /// Removes the list of a run's changes, if there is one; the items it alone lists go with it.
    private func removeChanges() async throws {
        guard try await storage.list(changesKey) != nil else { return }
        _ = try await storage.evict(list: changesKey)
    }

    private func listSync(
        of source: Source, into list: ListDescriptor,
        _ repeatedSecondPage: ListSync<Source>.RepeatedSecondPage
    ) -> ListSync<Source> {
        var sync = ListSync(storage: storage, source: source, list: list)
        sync.keepsNoStorePages = keepsNoStorePages
        sync.concurrency = concurrency
        sync.onPageRetry = onPageRetry
        sync.repeatedSecondPage = repeatedSecondPage
        sync.tracer = tracer
        return sync
    }

    /// The greater of `current` and the item's value of `field`.
    static func greatest(_ current: String?, _ item: RawItem, field: String) -> String? {
        guard let value = value(of: field, in: item.json) else { return current }
        return current.map { SyncWatermark.greater($0, value) } ?? value
    }

    /// The value of the member at a key path of an item's JSON, as text: a string as it is, a number in decimal.
    static func value(of field: String, in json: Data) -> String? {
        var value: Any? = try? JSONSerialization.jsonObject(with: json)
        for member in field.split(separator: ".") {
            value = (value as? [String: Any])?[String(member)]
        }
        switch value {
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }
}
