/// Every figure group of the benchmark, in report order.
///
/// Each figure of our code is a group of its own, next to the baseline group it compares with.
enum FigureCatalog {
    static let groups: [FigureGroup] = [
        BaselineFigures.readPage,
        StoreFigures.readPage,
        StoreFigures.firstItems,
        BaselineFigures.persistPage,
        BaselineFigures.persistFetchedPage,
        StoreFigures.persistFetchedPage,
        BaselineFigures.updateItem,
        StoreFigures.updateItem,
        DepthFigures.offsetDepth,
        DeepPageFigures.deepPage,
        AccountFigures.oneOfTen,
        SearchFigures.search,
        SearchFigures.persist,
        ColdStartFigures.coldStart,
        RevalidationFigures.notModified,
        FreshnessFigures.relaunch,
        SyncFigures.sync,
        TracingFigures.tracing,
        IncrementalFigures.incremental,
        LiveListFigures.headRefresh,
        LiveListFigures.pacedRun,
        FeedFigures.feed,
        NetworkSpeedFigures.networkSpeed,
        CursorFigures.readAhead,
        WriteFigures.writes,
        FleetFigures.fleet,
    ]

    /// The groups whose id contains one of `names` (case-insensitive); all of them when `names` is empty.
    static func groups(matching names: [String]) -> [FigureGroup] {
        guard !names.isEmpty else { return groups }
        return groups.filter { group in names.contains { group.id.localizedCaseInsensitiveContains($0) } }
    }
}
