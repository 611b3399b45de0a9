import Foundation
import Slippers

/// Baseline (b): one JSON file per page, the page's items as one array.
///
/// Writing replaces the file atomically (a temporary file renamed over it), so
/// a crash leaves the old page or the new one. Foundation on Linux calls
/// `fsync` on every `Data.write(to:)`, atomic or not: this baseline is as
/// durable as SQLite with `synchronous = FULL`, and pays for it on every page.
/// Updating one item rewrites its whole page: read, decode, change, encode, write.
final class JSONFilePerPageBaseline: Baseline {
    private let directory: URL

    /// Uses `directory`, creating it if needed.
    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
    }

    func persist(page: Int, items: [BenchItem]) throws {
        try JsonProvider.encode(items).write(to: file(page), options: .atomic)
    }

    func readPage(_ page: Int) throws -> [BenchItem] {
        try JsonProvider.decode([BenchItem].self, from: Data(contentsOf: file(page)))
    }

    func updateItem(_ item: BenchItem, inPage page: Int) throws {
        var items = try readPage(page)
        guard let index = items.firstIndex(where: { $0.id == item.id }) else { return }
        items[index] = item
        try persist(page: page, items: items)
    }

    private func file(_ page: Int) -> URL {
        directory.appendingPathComponent("page-\(page).json")
    }
}
