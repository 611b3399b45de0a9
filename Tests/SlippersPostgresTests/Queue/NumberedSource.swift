import Foundation
import Slippers
import Synchronization

/// A list of numbered pages in memory, its pages named by their numbers from 1 and its total on
/// every page; it records the pages it is asked for and can wait before each.
final class NumberedSource: AddressablePageSource {
    let pageCount: Int
    let pageSize: Int
    let delay: Duration
    private let fetched = Mutex<[Int]>([])

    init(pageCount: Int, pageSize: Int = 5, delay: Duration = .zero) {
        self.pageCount = pageCount
        self.pageSize = pageSize
        self.delay = delay
    }

    /// The numbers of the pages asked for, in the order they were asked for.
    var pagesFetched: [Int] { fetched.withLock { $0 } }

    func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        let number = Int(request.token?.rawValue ?? "1") ?? 1
        fetched.withLock { $0.append(number) }
        if delay > .zero { try await Task.sleep(for: delay) }
        let ids = ((number - 1) * pageSize + 1)...(number * pageSize)
        let items = ids.map { RawItem(key: .integer($0), json: Data(#"{"id":\#($0)}"#.utf8)) }
        return .page(
            Page(
                items: items, token: request.token, nextToken: number < pageCount ? PageToken("\(number + 1)") : nil,
                total: pageCount * pageSize))
    }

    func token(forPageAt index: Int) -> PageToken? {
        index == 0 ? nil : PageToken("\(index + 1)")
    }

    func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
        pageItemCount > 0 ? (total + pageItemCount - 1) / pageItemCount : nil
    }
}

/// A value the tasks of a test share, behind a lock.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
