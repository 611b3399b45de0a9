/// The sizes of the lists that figures build for themselves, apart from the workload.
struct FixtureSizes: Sendable {
    /// Items of the list whose last page is read against its first.
    var deepItems: Int
    /// Items of the database a child process opens cold.
    var coldStartItems: Int
    /// Cached pages revalidated as not modified.
    var revalidatedPages: Int
    /// The two list sizes synced from the fixture API, ten times apart.
    var syncItems: (small: Int, large: Int)
    /// Items synced from the fixture API served with latency, against a sequential client.
    var networkItems: Int
    /// The lists a fleet of workers syncs from the fixture API served with latency, and the items of each.
    var fleet: (lists: Int, items: Int) = (40, 2_000)
    /// Items of the list synced incrementally after 1 % of them changed.
    var incrementalItems = 50_000
    /// Items of the list searched with the full-text index.
    var searchItems = 100_000

    /// The full sizes: page 10 000 of 500 000 items, 1 000 000 items, 2 000 pages, 20 000 items 20 ms away.
    static let full = FixtureSizes(
        deepItems: 500_000, coldStartItems: 1_000_000, revalidatedPages: 2_000, syncItems: (10_000, 100_000),
        networkItems: 20_000)

    /// A tenth of the full sizes, for smoke runs; figure names say which sizes were used.
    static let quick = FixtureSizes(
        deepItems: 50_000, coldStartItems: 100_000, revalidatedPages: 200, syncItems: (1_000, 10_000),
        networkItems: 2_000, fleet: (8, 1_000), incrementalItems: 5_000, searchItems: 10_000)
}
