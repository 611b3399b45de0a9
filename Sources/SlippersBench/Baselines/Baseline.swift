/// A way to cache pages that a user could write without Slippers, measured as the reference for our figures.
///
/// Each baseline is written honestly and simply, as a user would: typed items
/// in, typed items out, with ``JsonProvider``'s encoder and decoder (snake_case
/// keys, ISO 8601 dates), so the figures compare layouts and not JSON settings.
///
/// Not `Sendable`: a baseline owns an SQLite connection or a directory and is
/// used from one task at a time.
protocol Baseline: AnyObject {
    /// Stores `items` as page `page`, replacing what that page held.
    func persist(page: Int, items: [BenchItem]) throws

    /// The items of page `page`, decoded, in order.
    func readPage(_ page: Int) throws -> [BenchItem]

    /// Replaces the stored copy of `item`, which page `page` holds, with `item`.
    ///
    /// The page is passed because a baseline that stores whole pages could not
    /// find the item otherwise; a user of such a layout keeps that mapping somewhere.
    func updateItem(_ item: BenchItem, inPage page: Int) throws
}
