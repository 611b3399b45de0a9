import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage

/// Our side of the comparison: a Slippers ``SQLiteCache`` holding the workload as one list.
///
/// Workload page `p` (from 1) is the cache's page index `p - 1` (from 0).
/// Items are saved through ``Repository``, encoded with ``JsonProvider``
/// exactly as the baselines encode them, so both sides hold the same bytes.
final class WorkloadStore {
    /// The list key the workload is filed under.
    static let listKey = "GET /items"

    let store: SQLiteCache
    let repository: Repository<BenchItem>
    let path: String

    /// A cache at `path` holding every page of `workload`.
    init(path: String, workload: Workload) throws {
        self.path = path
        store = try SQLiteCache(path: path)
        repository = Repository(cache: store)
        for page in workload.pageNumbers {
            let next = page < workload.pageCount ? PageToken(rawValue: String(page + 1)) : nil
            try repository.save(
                Page(
                    items: workload.items(page: page), token: Self.token(page), nextToken: next,
                    total: workload.itemCount),
                at: page - 1, in: Self.listKey)
        }
    }

    /// The token of workload page `page`, as an API that numbers its pages would send it.
    static func token(_ page: Int) -> PageToken? {
        page == 1 ? nil : PageToken(rawValue: String(page))
    }

    /// The descriptor of the workload's list.
    var list: ListDescriptor { repository.list(Self.listKey) }
}
