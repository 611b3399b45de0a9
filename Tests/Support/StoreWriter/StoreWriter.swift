import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage

/// Writes pages into a cache until it is killed: the child process of the cache's crash and concurrency tests.
///
/// Usage: `StoreWriter DB KEY PAGES PAGE_SIZE`. Page `k` holds the items
/// `k * PAGE_SIZE + 1 … (k + 1) * PAGE_SIZE`. It resumes after the last
/// committed page, and after page `PAGES - 1` starts again at page 0 (a new
/// generation), forever. It prints `ready` once the database is open.
@main
struct StoreWriter {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, let pages = Int(arguments[3]), let size = Int(arguments[4]) else {
            FileHandle.standardError.write(Data("usage: StoreWriter DB KEY PAGES PAGE_SIZE\n".utf8))
            exit(64)
        }
        let store = try SQLiteCache(path: arguments[1])
        let list = ListDescriptor(key: arguments[2], itemType: "Item")
        var index = try store.list(list.key).map { $0.endReached ? 0 : $0.nextPageIndex } ?? 0
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        while true {
            let ids = (index * size + 1)...((index + 1) * size)
            let items = ids.map { id in
                RawItem(key: .integer(id), json: Data(#"{"id":\#(id),"page":\#(index),"pad":"\#(padding)"}"#.utf8))
            }
            let isLast = index == pages - 1
            let page = Page(
                items: items, token: index == 0 ? nil : PageToken(index),
                nextToken: isLast ? nil : PageToken(index + 1))
            try store.savePage(page, at: index, in: list)
            index = isLast ? 0 : index + 1
        }
    }

    /// Makes each item a few hundred bytes, so that a page spans several SQLite pages.
    static let padding = String(repeating: "x", count: 300)
}
