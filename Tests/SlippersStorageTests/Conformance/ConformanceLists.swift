import Foundation
import Slippers
import SlippersStorage

/// The lists the conformance suites save, and an outline of what a storage holds that leaves
/// dates and locations out, so that a file and a PostgreSQL database are compared as equals.
enum ConformanceLists {
    /// A list of posts.
    static let posts = ListDescriptor(key: "GET /posts", itemType: "Post")

    /// Each list's head and pages, and each page's items, in words that leave dates out.
    static func outline(_ storage: any CacheStorage) async throws -> [String] {
        var lines: [String] = []
        for info in try await storage.lists() {
            lines.append(
                "\(info.key) generation \(info.generation) resume \(info.resumeToken?.rawValue ?? "-") "
                    + "end \(info.endReached) total \(info.total.map(String.init) ?? "-") pages \(info.pageCount) "
                    + "superseded \(info.supersededPageCount) items \(info.itemCount)")
            for page in try await storage.pages(in: info.key) {
                let items = try await storage.page(at: page.index, in: info.key)?.items ?? []
                let texts = items.map { String(decoding: $0.json, as: UTF8.self) }
                lines.append(
                    "  \(page.index) generation \(page.generation) superseded \(page.isSuperseded) "
                        + "\(page.token?.rawValue ?? "-") → \(page.nextToken?.rawValue ?? "-"): "
                        + texts.joined(separator: " "))
            }
        }
        return lines
    }

    static func item(_ id: Int, _ label: String = "v1") -> RawItem {
        RawItem(key: .integer(id), json: Data(#"{"id":\#(id),"label":"\#(label)"}"#.utf8))
    }

    static func page(_ ids: [Int], token: PageToken? = nil, next: PageToken?, label: String = "v1")
        -> Page<RawItem>
    {
        Page(items: ids.map { item($0, label) }, token: token, nextToken: next)
    }
}
