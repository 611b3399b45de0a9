import Synchronization

/// Decides when a scrolling list should ask for its next page.
///
/// Call ``rowDisplayed(_:)`` with the index of each row as it is shown. When
/// the row comes within `distanceFromEnd` rows of the end of the last page
/// asked for, the trigger calls `loadNextPage` once, and counts that page as
/// asked for, so it does not ask again for the same page.
///
/// For example, with pages of 20 and a distance of 5, showing row 15 asks for
/// page 2, and rows 16…34 ask for nothing; row 35 asks for page 3.
///
/// ```swift
/// let trigger = InfiniteListTrigger(pageSize: 20, distanceFromEnd: 5) {
///     Task { await pager.loadNextPageIfNeeded() }
/// }
/// trigger.rowDisplayed(indexPath.row)
/// ```
///
/// Pages of a cache and of most servers vary in size. For them, give the
/// number of rows shown with each displayed row, ``rowDisplayed(_:of:)``: the
/// trigger asks once at most `distanceFromEnd` rows follow the row, and
/// asks again only when the number of rows has changed, so a failed load is
/// not repeated row after row.
///
/// ```swift
/// let trigger = InfiniteListTrigger(distanceFromEnd: 5) { Task { await pager.loadNextPageIfNeeded() } }
/// trigger.rowDisplayed(indexPath.row, of: rows.count)
/// ```
public final class InfiniteListTrigger: Sendable {
    /// The number of rows in a full page.
    let pageSize: Int
    /// How many rows before the end of the loaded rows the next page is asked for.
    package let distanceFromEnd: Int

    private let pagesRequested: Mutex<Int>
    /// The number of rows shown when the next page was last asked for by ``rowDisplayed(_:of:)``.
    private let askedAtRowCount = Mutex<Int?>(nil)
    private let loadNextPage: @Sendable () -> Void

    /// Creates a trigger for a list whose first `loadedPages` pages are already asked for.
    ///
    /// - precondition: `pageSize > 0`, `distanceFromEnd >= 0`, `loadedPages >= 0`.
    public init(
        pageSize: Int,
        distanceFromEnd: Int,
        loadedPages: Int = 1,
        loadNextPage: @escaping @Sendable () -> Void
    ) {
        precondition(pageSize > 0, "pageSize must be positive")
        precondition(distanceFromEnd >= 0, "distanceFromEnd must not be negative")
        precondition(loadedPages >= 0, "loadedPages must not be negative")
        self.pageSize = pageSize
        self.distanceFromEnd = distanceFromEnd
        self.pagesRequested = Mutex(loadedPages)
        self.loadNextPage = loadNextPage
    }

    /// Creates a trigger for a list whose pages vary in size: drive it with ``rowDisplayed(_:of:)``.
    ///
    /// A negative distance counts as zero.
    public convenience init(distanceFromEnd: Int, loadNextPage: @escaping @Sendable () -> Void) {
        self.init(pageSize: 1, distanceFromEnd: max(0, distanceFromEnd), loadedPages: 0, loadNextPage: loadNextPage)
    }

    /// The number of pages asked for so far, including the initial ones.
    package var pagesAskedFor: Int { pagesRequested.withLock { $0 } }

    /// Reports that the row at `row` is being displayed, asking for the next page when it is due.
    public func rowDisplayed(_ row: Int) {
        let isDue = pagesRequested.withLock { pages in
            guard row >= pages * pageSize - distanceFromEnd else { return false }
            pages += 1
            return true
        }
        if isDue { loadNextPage() }
    }

    /// Reports that the row at `row` of `rowCount` rows is being displayed, asking for the next page when it is due.
    ///
    /// It is due when at most ``distanceFromEnd`` rows follow the row (the last
    /// row is always near enough) and the next page was not already asked for at
    /// this number of rows.
    public func rowDisplayed(_ row: Int, of rowCount: Int) {
        if isDue(row, of: rowCount) { loadNextPage() }
    }

    /// Whether the next page is due when the row at `row` of `rowCount` rows is displayed;
    /// when it is, it counts as asked for, as ``rowDisplayed(_:of:)`` does, without calling the closure.
    package func isDue(_ row: Int, of rowCount: Int) -> Bool {
        guard row >= rowCount - 1 - distanceFromEnd else { return false }
        return askedAtRowCount.withLock { asked in
            guard asked != rowCount else { return false }
            asked = rowCount
            return true
        }
    }

    /// Starts counting again, after a refresh or a retry, from `loadedPages` pages asked for.
    package func reset(loadedPages: Int = 1) {
        pagesRequested.withLock { $0 = loadedPages }
        askedAtRowCount.withLock { $0 = nil }
    }

    /// A function to call with each displayed row index.
    package static func make(
        pageSize: Int,
        distanceFromEnd: Int,
        loadNextPage: @escaping @Sendable () -> Void
    ) -> @Sendable (Int) -> Void {
        let trigger = InfiniteListTrigger(
            pageSize: pageSize, distanceFromEnd: distanceFromEnd, loadNextPage: loadNextPage)
        return { row in trigger.rowDisplayed(row) }
    }
}
