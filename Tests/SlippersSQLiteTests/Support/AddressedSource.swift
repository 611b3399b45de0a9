import Foundation
import Slippers
import Synchronization

/// A ``ScriptedSource`` that names its pages by index, answering them out of order.
///
/// Page *k* (from 0) is page number *k + 1*. Each answer waits a few
/// milliseconds that vary from page to page, so that pages asked for together arrive shuffled.
final class AddressedSource: AddressablePageSource, Sendable {
    let base: ScriptedSource
    /// Whether pages carry the list's total; without it, the sync cannot tell where the list ends.
    let sendsTotal: Bool
    private let inFlight = Mutex((now: 0, most: 0))

    init(ids: [Int], pageSize: Int, sendsTotal: Bool = true) {
        self.base = ScriptedSource(ids: ids, pageSize: pageSize)
        self.sendsTotal = sendsTotal
    }

    /// The page numbers asked for so far.
    var pagesAskedFor: [Int] { base.pagesAskedFor }
    /// The most requests that were in flight at once.
    var mostInFlight: Int { inFlight.withLock { $0.most } }

    func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        inFlight.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
        defer { inFlight.withLock { $0.now -= 1 } }
        let number = request.token?.intValue ?? 1
        try await Task.sleep(for: .milliseconds((number * 7) % 5 * 3))
        var result = try await base.fetch(request)
        if !sendsTotal, case .page(var page) = result {
            page.total = nil
            result = .page(page)
        }
        return result
    }

    func token(forPageAt index: Int) -> PageToken? {
        PageToken(index + 1)
    }

    func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        (total + base.pageSize - 1) / base.pageSize
    }
}
