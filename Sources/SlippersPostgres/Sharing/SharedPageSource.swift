import Slippers
import Synchronization

/// The source of the worker holding a list's lease, sharing the list's pages with the workers
/// waiting for it: each page is fetched by one worker only.
///
/// Workers started on a list whose pages are addressable (page numbers, offsets with a page
/// size) fetch its pages ahead of the lease holder while they wait for the lease (see
/// ``PostgresCache/fetchPagesAhead(of:source:concurrency:until:)``) and stage them in the
/// database. This source takes a staged page instead of fetching it, waits for one a live worker
/// is fetching, and fetches the others itself, claiming them first. The lease holder alone
/// commits pages, in order: the committed prefix and the resume point stay exact.
///
/// The first page, and any request with validators, go to the base source directly.
public final class SharedPageSource<Base: AddressablePageSource>: AddressablePageSource
where Base.Item == RawItem {
    /// The source this one fetches with.
    let base: Base
    private let cache: PostgresCache
    private let list: SharedList
    private let state = Mutex(State())

    /// What the source has done so far.
    private struct State {
        /// Pages claimed ahead of the one asked for, and not fetched yet.
        var mine: Set<PageToken> = []
        /// The index of the last page asked for, where the next one is looked for.
        var lastIndex = 0
        /// The number of pages taken from other workers.
        var fromOthers = 0
    }

    /// How many pages the lease holder claims at once: the page it asks for and those after it.
    static var pagesClaimedAtOnce: Int { 8 }

    /// Creates the lease holder's source for `list` of `cache`.
    public init(base: Base, cache: PostgresCache, list: SharedList) {
        self.base = base
        self.cache = cache
        self.list = list
    }

    /// The number of pages this source took from other workers instead of fetching them.
    var pagesFetchedByOthers: Int { state.withLock { $0.fromOthers } }

    /// The page, as another worker staged it or fetched by this one.
    public func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        // Only pages named by index are fetched ahead by other workers.
        guard let token = request.token, request.validators == nil, base.token(forPageAt: 1) != nil,
            !takeClaimed(token)
        else { return try await base.fetch(request) }
        let tokens = [token] + tokens(after: token)
        while true {
            let (claim, alsoMine) = try await cache.claimForLeaseHolder(list, tokens: tokens)
            state.withLock { $0.mine.formUnion(alsoMine) }
            switch claim {
            case .mine:
                return try await base.fetch(request)
            case .staged(let page):
                state.withLock { $0.fromOthers += 1 }
                return .page(page)
            case .busy:
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// Whether `token` was claimed ahead; it is no longer once this says so.
    private func takeClaimed(_ token: PageToken) -> Bool {
        state.withLock { $0.mine.remove(token) != nil }
    }

    /// The tokens of the pages after the one `token` names, up to ``pagesClaimedAtOnce`` in all.
    private func tokens(after token: PageToken) -> [PageToken] {
        let hint = state.withLock { $0.lastIndex }
        let candidates = Array(max(1, hint - Self.pagesClaimedAtOnce)...(hint + 4 * Self.pagesClaimedAtOnce))
        guard let index = candidates.first(where: { base.token(forPageAt: $0) == token }) else { return [] }
        state.withLock { $0.lastIndex = max($0.lastIndex, index) }
        return (index + 1..<index + Self.pagesClaimedAtOnce).compactMap { base.token(forPageAt: $0) }
    }

    /// Whether the base source asks for the item before the page at `token`.
    public func asksItemBefore(at token: PageToken?) -> Bool {
        base.asksItemBefore(at: token)
    }

    /// The style text the base source learnt of its server, if any.
    public var learntStyle: String? {
        base.learntStyle
    }

    /// The base source's fingerprint of the headers it sends.
    public func varyKey(for headerNames: [String]) -> String? {
        base.varyKey(for: headerNames)
    }

    /// The base source's digest of the credentials it sends.
    public var credentialDigest: String? { base.credentialDigest }

    /// The base source's token for the page at `index`.
    public func token(forPageAt index: Int) -> PageToken? {
        base.token(forPageAt: index)
    }

    /// The base source's number of pages for a list of `total` items.
    public func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        base.pageCount(forTotal: total, pageItemCount: pageItemCount)
    }
}
