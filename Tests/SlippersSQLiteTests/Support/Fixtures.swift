import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage

/// Builders of pages and items for the cache tests.
enum Fixtures {
    static let posts = ListDescriptor(key: "GET /posts", itemType: "Post")

    /// A raw item whose JSON records its id and a label.
    static func item(_ id: Int, _ label: String = "v1") -> RawItem {
        RawItem(key: .integer(id), json: Data(#"{"id":\#(id),"label":"\#(label)"}"#.utf8))
    }

    /// A page of the given ids; it is the last page when `next` is `nil`.
    static func page(_ ids: [Int], token: PageToken? = nil, next: PageToken?, label: String = "v1", total: Int? = nil)
        -> Page<RawItem>
    {
        Page(items: ids.map { item($0, label) }, token: token, nextToken: next, total: total)
    }

    /// The shape of ``item(_:_:)``'s JSON, decoded.
    struct Labelled: Codable, Identifiable, CacheIdentifiable, Sendable {
        var id: ID<Labelled>
        var label: String
    }

    /// The integer ids of raw items.
    static func ids(_ items: [RawItem]) -> [Int] {
        items.map { item in
            if case .integer(let id) = item.key { return id }
            return -1
        }
    }
}
