import Slippers

/// The pages a sync has asked for ahead of the one it saves next, and those that arrived early.
///
/// Pages are asked for by index. An addressable source names any page's
/// token, so up to the concurrency limit of them are in flight; any other
/// source names only the page after the last one read, so one is in flight
/// while the sync saves the page before it. Pages that arrive out of order
/// wait here, in memory, until the pages before them are saved: the cache only
/// ever holds a prefix of the list, and its resume token is that prefix's.
///
/// The pages in flight start afresh (a new ``epoch``) when the walk moves elsewhere:
/// another process started the list again, or an addressable source's page
/// announced a next token it did not predict. Pages of an older epoch are dropped when they arrive.
struct PagesInFlight {
    /// The result of one fetch, tagged with the epoch it was asked for in.
    struct Fetched: Sendable {
        var epoch: Int
        var index: Int
        var result: Result<PageResult<RawItem>, any Error>
        var retries: Int
    }

    /// The source that names the token of any page, while its predictions hold.
    var addressable: (any AddressablePageSource)?
    /// The source the walk was given, when addressable: adopted as ``addressable`` once it names the
    /// next page as the page before announced it (a source that learnt its cursors from the first page).
    private var candidate: (any AddressablePageSource)?
    /// Whether the source named a page otherwise than its predecessor: it is not adopted again.
    private var refuted = false
    /// Bumped each time the pages in flight start afresh.
    private(set) var epoch = 0
    /// The index of the next page to ask for.
    private(set) var nextIndex: Int
    /// The token of the page at ``nextIndex`` when known without the source: from the ledger or the page before.
    private var knownToken: (index: Int, token: PageToken?)?
    /// Pages that arrived before the page the walk reads next.
    private var arrived: [Int: Fetched] = [:]
    /// Pages asked for out of turn, ahead of ``nextIndex``: skipped when their turn comes.
    private var askedEarly: Set<Int> = []
    /// The number of pages of the list, when the source could tell from a total.
    var pageCount: Int?

    /// Pages in flight from the one the one at `index`, asked for with `token`.
    init(addressable: (any AddressablePageSource)?, index: Int, token: PageToken?) {
        self.nextIndex = index
        self.addressable = nil
        restart(addressable: addressable, index: index, token: token)
    }

    /// Drops everything asked for and starts again at `index`.
    mutating func restart(addressable source: (any AddressablePageSource)?, index: Int, token: PageToken?) {
        if let source { candidate = source }
        epoch += 1
        arrived = [:]
        askedEarly = []
        nextIndex = index
        knownToken = (index, token)
        addressable = source.flatMap { Self.predicts($0, index: index, token: token) ? $0 : nil }
    }

    /// Whether `source` names the page at `index` with `token` and can name the page after it.
    private static func predicts(_ source: any AddressablePageSource, index: Int, token: PageToken?) -> Bool {
        guard source.token(forPageAt: index + 1) != nil else { return false }
        return index == 0 ? token == nil : source.token(forPageAt: index) == token
    }

    /// The token of the page at `index`, when it is known; `.none` when it does not.
    func token(at index: Int) -> PageToken?? {
        if let knownToken, knownToken.index == index { return .some(knownToken.token) }
        guard let addressable else { return .none }
        if index == 0 { return .some(nil) }
        return addressable.token(forPageAt: index).map { .some($0) } ?? .none
    }

    /// Records the token of the page after `index`, as the page at `index` announced it.
    ///
    /// A source that names this token for the page after `index`, and a token for the page after
    /// that, is adopted from then on, unless it was refuted before; a refuted source's page count
    /// is forgotten, and the walk follows the announced tokens to the end the server says.
    ///
    /// - returns: `false` when an addressable source had predicted another token:
    ///   the pages in flight have then started afresh after `index`, paging one after another.
    mutating func announce(next token: PageToken, after index: Int) -> Bool {
        if addressable != nil, self.token(at: index + 1) != .some(token) {
            // Its page count came from its page size, which the server did not keep to.
            refuted = true
            pageCount = nil
            restart(addressable: nil, index: index + 1, token: token)
            return false
        }
        knownToken = (index + 1, token)
        if addressable == nil, !refuted, let candidate, candidate.token(forPageAt: index + 1) == token,
            candidate.token(forPageAt: index + 2) != nil
        {
            addressable = candidate
        }
        return true
    }

    /// Whether the page at ``nextIndex`` may be asked for: its token is known, and it is not past the known end.
    ///
    /// The page right after the last one read is always allowed: its own predecessor announced it.
    func mayAsk(readIndex: Int) -> Bool {
        mayAsk(readIndex: readIndex, nextToken: token(at: nextIndex))
    }

    /// ``mayAsk(readIndex:)`` with the token of the page at ``nextIndex`` known: `nextToken`.
    func mayAsk(readIndex: Int, nextToken: PageToken??) -> Bool {
        guard nextToken != .none else { return false }
        if let pageCount, nextIndex >= pageCount, nextIndex > readIndex { return false }
        return true
    }

    /// Counts the page at ``nextIndex``, whose token is `token`, as asked for and returns its index and token.
    mutating func ask(token: PageToken?) -> (index: Int, token: PageToken?) {
        let index = nextIndex
        nextIndex += 1
        skipAskedEarly()
        return (index, token)
    }

    /// Counts the page at `index`, past ``nextIndex``, as asked for out of turn and returns its token;
    /// `nil` when the addressable source cannot name it.
    mutating func askEarly(_ index: Int) -> PageToken? {
        guard index > nextIndex, let addressable, let token = addressable.token(forPageAt: index) else { return nil }
        askedEarly.insert(index)
        return token
    }

    /// Moves ``nextIndex`` past the pages asked for out of turn.
    private mutating func skipAskedEarly() {
        while askedEarly.remove(nextIndex) != nil { nextIndex += 1 }
    }

    /// Keeps a page that arrived; pages of an older epoch are dropped.
    mutating func receive(_ fetched: Fetched) {
        guard fetched.epoch == epoch else { return }
        arrived[fetched.index] = fetched
    }

    /// Whether the page at `index` has arrived and is not read yet.
    func hasArrived(_ index: Int) -> Bool { arrived[index] != nil }

    /// Takes the page at `index` out of those in flight, when it has arrived.
    mutating func take(_ index: Int) -> Fetched? {
        arrived.removeValue(forKey: index)
    }

    /// The number of pages asked for or arrived beyond the page at `readIndex`, that the walk has not read yet.
    func pending(after readIndex: Int) -> Int { nextIndex - readIndex }
}
