import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage

/// Pages a list through a `Pager` in its own process: the child of the pager's resume test.
///
/// Usage: `PagerWorker DB ITEMS PAGE_SIZE LOADS`. The source serves the ids
/// `1…ITEMS` in pages; the worker starts a cache-first pager and asks for the
/// next page up to `LOADS` times. It prints `fetched N` for every page number
/// it requested from the source, then `cached C` with the number of cached items.
@main
struct PagerWorker {
    struct Item: Codable, Identifiable, CacheIdentifiable, Sendable {
        let id: ID<Item>
    }

    /// Logs every page it is asked for, then serves it from the array.
    struct LoggingSource: PageSource {
        let base: MappedPageSource<ArrayPageSource<Item>, RawItem>

        func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
            FileHandle.standardOutput.write(Data("fetched \(request.token?.rawValue ?? "1")\n".utf8))
            return try await base.fetch(request)
        }
    }

    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, let count = Int(arguments[2]), let size = Int(arguments[3]),
            let loads = Int(arguments[4])
        else {
            FileHandle.standardError.write(Data("usage: PagerWorker DB ITEMS PAGE_SIZE LOADS\n".utf8))
            exit(64)
        }
        let items = (1...count).map { Item(id: ID($0)) }
        let source = LoggingSource(base: items.pageSource(pageSize: size).encodingItems())
        let store = try SQLiteCache(path: arguments[1])
        let pager = Pager<Item>(
            cache: store, source: source, list: ListDescriptor(key: "items", of: Item.self),
            configuration: PagerConfiguration(policy: .cacheFirst(maxAge: 3600)))
        await pager.start()
        for _ in 0..<loads { await pager.loadNextPageIfNeeded() }
        let state = await pager.state
        if let error = state.refresh.error ?? state.append.error {
            FileHandle.standardError.write(Data("PagerWorker: \(error)\n".utf8))
            exit(1)
        }
        FileHandle.standardOutput.write(Data("cached \(state.items.count)\n".utf8))
    }
}
