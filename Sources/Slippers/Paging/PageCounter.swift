import Synchronization

/// A page counter that tells its owner which page to fetch.
///
/// The counter owns the page number; the owner supplies `onPageUpdate`, which
/// receives the page to fetch. Every change of page, and every explicit
/// fetch, calls it exactly once. ``refresh()`` goes back to the first page.
///
/// Pages are numbered from ``firstPage``, which is `1` unless given (APIs
/// that count from zero pass `firstPage: 0`).
///
/// For example:
///
/// ```swift
/// let counter = PageCounter(firstPage: 1) { page in
///     Task { try await load(page: page) }
/// }
/// counter.fetchPage()   // loads page 1
/// counter.nextPage()    // loads page 2
/// counter.refresh()     // loads page 1 again
/// ```
public final class PageCounter: Pageable, Refreshable {
    /// The number of the first page: `1` by default, `0` for zero-based APIs.
    package let firstPage: Int

    private let state: Mutex<Int>
    private let onPageUpdate: @Sendable (Int) -> Void

    /// Creates a counter positioned on the first page; nothing is fetched until asked.
    ///
    /// - parameter firstPage: The number of the first page, `1` unless given.
    /// - parameter onPageUpdate: Called with the page to fetch, outside any lock.
    public init(firstPage: Int = 1, onPageUpdate: @escaping @Sendable (Int) -> Void) {
        self.firstPage = firstPage
        self.state = Mutex(firstPage)
        self.onPageUpdate = onPageUpdate
    }

    /// The current page number.
    public var page: Int { state.withLock { $0 } }

    /// Moves to the next page and fetches it.
    public func nextPage() {
        let page = state.withLock { page in
            page += 1
            return page
        }
        onPageUpdate(page)
    }

    /// Fetches the current page.
    public func fetchPage() {
        onPageUpdate(page)
    }

    /// Goes back to the first page and fetches it.
    public func refresh() {
        let page = state.withLock { page in
            page = firstPage
            return page
        }
        onPageUpdate(page)
    }
}
