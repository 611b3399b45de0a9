import Foundation
import Slippers
import SlippersStorage

extension Repository {
    /// The cached items that match `text`, most relevant first, decoded: see ``SQLiteCache/search(_:in:limit:)``.
    ///
    /// For example, for a search field:
    ///
    /// ```swift
    /// let found = try posts.search("cafe mess")                       // every cached Post
    /// let inList = try posts.search("cafe", in: "GET /posts", limit: 10)  // one list's
    /// ```
    ///
    /// - parameter text: What a person typed.
    /// - parameter key: The list to search; every item of ``itemType`` when `nil`.
    /// - parameter limit: The most items returned.
    /// - throws: `DecodingError`, or a `DatabaseError`.
    public func search(_ text: String, in key: String? = nil, limit: Int = 50) throws -> [Item] {
        let scope: SearchScope = key.map { .collection($0) } ?? .itemType(itemType)
        return try cache.search(text, in: scope, limit: limit).decoded(as: Item.self, logger: cache.logger)
    }
}
