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
        let scope: SearchScope = key.map { .list($0) } ?? .itemType(itemType)
        return try cache.search(text, in: scope, limit: limit).decoded(as: Item.self, logger: cache.logger)
    }

    /// Makes only `members` searchable in the items of ``itemType``: see
    /// ``SQLiteCache/setSearchableMembers(_:of:)``.
    ///
    /// - returns: Whether the set changed, and so the items were indexed again.
    /// - throws: `SQLiteCacheError.readOnly(path:)` on a read-only store, or a `DatabaseError`.
    @discardableResult
    public func setSearchableMembers(_ members: [String]) throws -> Bool {
        try cache.setSearchableMembers(members, of: itemType)
    }
}
