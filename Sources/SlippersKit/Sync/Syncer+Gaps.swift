import Foundation
import Slippers
import SlippersNetworking
import SlippersStorage

extension Syncer.Run {
    /// Fills the gaps a feed holds (``SlippersStorage/FeedGapStorage``), each from the run above
    /// it, until the runs meet: a sync ends exact only when no gap is left.
    ///
    /// - parameter pagesLeft: How many pages the sync may still fetch; no limit when `nil`.
    /// - returns: The pages fetched and the items they brought that no page held.
    /// - throws: What fetching a page throws; `NetworkError` of kind `notAdvancing` when a gap's
    ///   page names itself as the next one.
    func fillGaps(_ plan: SyncPlan, pagesLeft: Int?) async throws -> (pages: Int, items: Int) {
        guard let feed = storage as? any FeedGapStorage else { return (0, 0) }
        let key = plan.list.key
        var pages = 0
        var items = 0
        while let gap = try feed.gaps(in: key).first {
            if let pagesLeft, pages >= pagesLeft { break }
            guard let page = try await plan.source.fetch(PageRequest(token: gap.token)).page else { break }
            let fill = try feed.fillGap(gap, with: page, in: plan.list, now: Date())
            pages += 1
            items += fill.inserted
            if !fill.isClosed, page.nextToken == gap.token {
                throw NetworkError(.notAdvancing(token: gap.token.rawValue))
            }
        }
        return (pages, items)
    }
}
