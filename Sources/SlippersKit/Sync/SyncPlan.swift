import Foundation
import SlippersStorage

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a sync of an HTTP list files its pages and how it asks for them: the list, its style, the source.
///
/// A URL whose list the cache already holds is paged with the style
/// stored with it, so a resumed sync sends no request for the pages it has.
/// A new one is detected from its first page, which is then served from
/// memory, not fetched twice.
///
/// For example, what `slippers sync URL` does:
///
/// ```swift
/// let plan = try await SyncPlan.make(storage: cache, client: client, url: url)
/// try await ListSync(storage: cache, source: plan.source, list: plan.list).run()
/// ```
public struct SyncPlan: Sendable {
    /// The source of the pages.
    public var source: PrimedPageSource
    /// The list the pages are filed under; its style is the source's, as stored text. Headers are never part of it.
    public var list: ListDescriptor
    /// The list as the cache held it before the run, if it did.
    package var stored: ListInfo?
    /// Whose list this is: the account declared, else the one the request's credentials derive,
    /// else the anonymous account. The list's key and item type carry it.
    public var account: Account { list.account }

    /// The pagination style being used.
    public var style: PaginationStyle { source.base.style }
    /// Whether the way of asking for pages is a guess: detected with low confidence, and not given by the caller.
    ///
    /// A guessed page-number list whose second page repeats the first exactly is
    /// one page; see ``repeatedSecondPage``.
    var isStyleGuessed = false
    /// Whether the plan resumes the style stored with ``stored`` (`false`: the style was detected
    /// from the list's first page, or given, for this run).
    var resumesStoredStyle = false
    /// The detection the style came from, when this run detected it: its hints say what in the
    /// first response showed that the list pages.
    public var detection: PaginationStyle.Detection?

    /// What a sync under this plan makes of a second page that lists exactly the first page's items.
    ///
    /// When the style is a guess, the list is one page, filed under
    /// ``PaginationStyle/singlePage(itemsKeyPath:idField:)`` with the same items and
    /// id; otherwise the sync stops and says to check the style.
    public var repeatedSecondPage: ListSync<PrimedPageSource>.RepeatedSecondPage {
        guard isStyleGuessed else { return .fails }
        let onePage = PaginationStyle.singlePage(itemsKeyPath: style.itemsKeyPath, idField: style.idField)
        return .endsTheList(style: try? onePage.storedText())
    }

    /// Whether a walk of the list under this plan ends by reading it again from its last page
    /// (`ListSync.readsAgainInReverse`): a list asked for by page number
    /// (``PaginationStyle/Kind/pageNumber(parameter:firstPage:)``, or a next URL that advances a page
    /// number by one), read one page at a time, whose new items are not known to come first.
    ///
    /// - parameter concurrency: The most pages the walk asks for at once.
    /// - parameter newestFirst: Whether the caller said, or the cache recorded, that the list's new items come first.
    public func readsAgainInReverse(concurrency: Int, newestFirst: Bool) -> Bool {
        concurrency <= 1 && !newestFirst && style.readsPagesByNumber
    }

    /// Creates a plan.
    public init(source: PrimedPageSource, list: ListDescriptor, stored: ListInfo?) {
        self.source = source
        self.list = list
        self.stored = stored
    }

    /// Plans the sync of the list at `url`.
    ///
    /// A new list is filed under the URL's plain ``HTTPPageSource/listKey``, as the
    /// command line shows it; a list the cache holds keeps its key, plain or styled.
    ///
    /// - parameter storage: The cache: an SQLite file or a PostgreSQL database.
    /// - parameter client: The client that sends the requests.
    /// - parameter url: The URL of the list's first page.
    /// - parameter headers: Headers for every request; never stored.
    /// - parameter overrides: What to use instead of detecting it.
    /// - parameter itemType: The name items are filed under; the source's default unless given.
    /// - parameter refresh: Whether the list starts again at its first page (then a stored
    ///   style may be replaced by another one).
    /// - parameter account: Whose list this is, such as the user's id; `nil` for the account the
    ///   credentials in `headers` and the URL's query derive (anonymous without any). Only this
    ///   account's list is resumed: another account's copy of the list is never used.
    /// - throws: ``SyncPlanError/styleConflict(list:stored:requested:)`` when a stored
    ///   list would be resumed with another way of asking for pages; a `NetworkError`
    ///   when the first page, needed to detect the style, cannot be fetched or read.
    public static func make(
        storage: any CacheStorage,
        client: APIClient,
        url: URL,
        headers: [String: String] = [:],
        overrides: StyleOverrides = StyleOverrides(),
        itemType: String? = nil,
        refresh: Bool = false,
        account: Account? = nil
    ) async throws -> SyncPlan {
        let account = storage.account(
            declared: account, credentialDigest: HTTPPageSource.credentialDigest(headers: headers, url: url))
        let posted = overrides.style.flatMap { $0.isPosted ? overrides.applied(to: $0) : nil }
        let resolution = try await ListStyleResolution.resolve(
            url: url, client: client, headers: headers, stub: nil, storage: storage, account: account, posted: posted,
            pageTwo: .inferred, adjusting: { overrides.applied(to: $0) })
        switch resolution {
        case .stored(var stored, let storedStyle):
            stored.key = ListKey(parsing: stored.key).forAccount(account).description
            stored.itemType = ListKey.itemType(stored.itemType, account: account)
            let style = overrides.applied(to: storedStyle)
            if overrides.asksForPagesOtherwise, !style.asksForPagesLike(storedStyle), !refresh {
                throw SyncPlanError.styleConflict(list: stored.key, stored: storedStyle, requested: style)
            }
            try checkPageSize(overrides, style: style)
            let base = HTTPPageSource(client: client, url: url, style: style, headers: headers)
            var plan = SyncPlan(
                source: PrimedPageSource(base: base, firstPage: nil),
                list: ListDescriptor(
                    key: stored.key, itemType: stored.itemType, style: try style.storedText()),
                stored: stored)
            plan.resumesStoredStyle = true
            return plan
        case .detected(let base, let firstPage, let secondPage, let detection):
            try checkPageSize(overrides, style: base.style)
            let source = PrimedPageSource(base: base, firstPage: firstPage, secondPage: secondPage)
            let list = ListDescriptor(
                key: base.listKey, itemType: itemType ?? base.defaultItemType, style: try base.style.storedText()
            ).forAccount(account)
            var plan = SyncPlan(
                source: source, list: list, stored: try await storage.list(list.key))
            plan.isStyleGuessed = overrides.style == nil && detection.confidence == .low && detection.hints.isEmpty
            plan.detection = detection
            return plan
        }
    }

    /// Refuses a page size that no parameter of the list would send: it is never sent under a guessed name.
    private static func checkPageSize(_ overrides: StyleOverrides, style: PaginationStyle) throws {
        guard overrides.pageSize != nil, style.pageSizeParameter == nil, style.sendsPageSize else { return }
        throw SyncPlanError.noPageSizeParameter
    }
}

/// Why a sync cannot be planned as asked: its ``code`` and the context the code needs.
///
/// A new code is not a breaking change; compare codes with `==`, as in
/// `error.code == .styleConflict`.
public struct SyncPlanError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: one of the static members, compared with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case styleConflict, noPageSizeParameter
        }

        fileprivate let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The cache holds the list paged one way, and the caller asked for another way without starting it again.
        public static let styleConflict = Code(.styleConflict)
        /// A page size was asked for, but neither the URL nor the first response names the parameter that sets it.
        public static let noPageSizeParameter = Code(.noPageSizeParameter)

        /// The code's name, as in `styleConflict`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The key of the list, for ``Code/styleConflict``.
    public let list: String?
    /// The style the cache holds the list in, for ``Code/styleConflict``.
    public let storedStyle: PaginationStyle?
    /// The style asked for, for ``Code/styleConflict``.
    public let requestedStyle: PaginationStyle?

    private init(
        _ code: Code, list: String? = nil, storedStyle: PaginationStyle? = nil,
        requestedStyle: PaginationStyle? = nil
    ) {
        self.code = code
        self.list = list
        self.storedStyle = storedStyle
        self.requestedStyle = requestedStyle
    }

    /// `list` was paged in the `stored` style, and the `requested` one is another.
    public static func styleConflict(list: String, stored: PaginationStyle, requested: PaginationStyle)
        -> SyncPlanError
    {
        SyncPlanError(.styleConflict, list: list, storedStyle: stored, requestedStyle: requested)
    }

    /// A page size was asked for, and no parameter sets it.
    static let noPageSizeParameter = SyncPlanError(.noPageSizeParameter)

    public var description: String {
        switch code.base {
        case .noPageSizeParameter:
            "--page-size: neither the URL nor its first response names the parameter that sets the page size; "
                + "give it with --page-size-param (such as page_size, per_page, limit or size)"
        case .styleConflict:
            "\"\(list ?? "")\" was paged as \(storedStyle?.styleName ?? ""), not \(requestedStyle?.styleName ?? ""); "
                + "start it again from its first page to page it another way"
        }
    }
}
