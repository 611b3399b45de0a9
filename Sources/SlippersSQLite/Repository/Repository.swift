import Foundation
import Slippers
import SlippersStorage

/// A typed view of a ``SQLiteCache``: pages and items of one Swift type, encoded with `JsonProvider`.
///
/// Items are filed under ``itemType`` (the type's name unless given) and
/// their `CacheIdentifiable/itemKey`.
///
/// For example:
///
/// ```swift
/// struct Post: Codable, Identifiable, CacheIdentifiable, Sendable {
///     let id: ID<Post>
///     var title: String
/// }
/// let posts = Repository<Post>(cache: cache)
/// try posts.save(page, at: 0, in: "GET /posts")
/// let cached = try posts.items(in: "GET /posts")
/// let one = try posts.item(ID<Post>(42))
/// ```
public struct Repository<Item: Codable & CacheIdentifiable & Sendable>: Sendable {
    /// The untyped cache underneath.
    public let cache: SQLiteCache
    /// The name the items are filed under.
    public let itemType: String

    /// Creates a repository of `Item`s over `cache`.
    ///
    /// - parameter cache: The cache to read and write.
    /// - parameter itemType: The name to file items under; the type's name unless given.
    public init(cache: SQLiteCache, itemType: String = String(describing: Item.self)) {
        self.cache = cache
        self.itemType = itemType
    }

    /// The descriptor of the list with `key`, for this repository's type.
    public func list(_ key: String, style: String? = nil) -> ListDescriptor {
        ListDescriptor(key: key, itemType: itemType, style: style)
    }

    /// Encodes a page's items and saves it (see ``SQLiteCache/savePage(_:at:in:now:)``).
    ///
    /// - throws: `EncodingError`, `CacheError`, `SQLiteCacheError`, or a `DatabaseError`.
    @discardableResult
    public func save(_ page: Page<Item>, at index: Int, in key: String, now: Date = Date()) throws -> ListHead {
        try cache.savePage(page.mapItems(RawItem.init(encoding:)), at: index, in: list(key), now: now)
    }

    /// The items of the cached page at `index`, or `nil` when it is not cached.
    ///
    /// - throws: `DecodingError` when a stored item does not match `Item`, or a `DatabaseError`.
    public func page(at index: Int, in key: String) throws -> [Item]? {
        try cache.page(at: index, in: key).map { try $0.items.decoded(as: Item.self, logger: cache.logger) }
    }

    /// The items at `positions` of the cached page at `index`, or `nil` when the page is not cached.
    ///
    /// Only those rows are read and decoded: show the first rows of a page at
    /// once, then read the rest.
    ///
    /// ```swift
    /// let first = try posts.page(at: 0, in: "GET /posts", positions: 0..<10)
    /// ```
    ///
    /// Positions past the page's end are ignored.
    ///
    /// - throws: `DecodingError` when a stored item does not match `Item`, or a `DatabaseError`.
    public func page(at index: Int, in key: String, positions: Range<Int>) throws -> [Item]? {
        try cache.page(at: index, in: key, positions: positions).map {
            try $0.items.decoded(as: Item.self, logger: cache.logger)
        }
    }

    /// The cached page at `index` with its items not yet decoded, or `nil` when it is not cached.
    ///
    /// Use it to show the first rows of a page before the others are decoded
    /// (see ``LazyPage``); its rows are read in one query, as ``page(at:in:)`` reads them.
    ///
    /// - throws: A `DatabaseError`.
    package func lazyPage(at index: Int, in key: String) throws -> LazyPage<Item>? {
        try cache.page(at: index, in: key).map(LazyPage.init)
    }

    /// The whole cached list of a list, in order, each id once.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, `DecodingError`, or a `DatabaseError`.
    public func items(in key: String) throws -> [Item] {
        guard let list = try cache.cachedList(key) else { throw CacheError.listNotFound(key: key) }
        try check(list.list)
        return try list.items.decoded(as: Item.self, logger: cache.logger)
    }

    /// The cached item with `key`, or `nil`.
    ///
    /// - throws: `DecodingError`, or a `DatabaseError`.
    public func item(key: ItemKey) throws -> Item? {
        try cache.item(type: itemType, key: key).map {
            try ItemDecoder.decode(Item.self, from: $0.item.json, logger: cache.logger)
        }
    }

    /// Saves one item; every cached page that lists it sees the change.
    ///
    /// - throws: `EncodingError`, or a `DatabaseError`.
    public func save(_ item: Item, now: Date = Date()) throws {
        try cache.saveItem(RawItem(encoding: item), type: itemType, now: now)
    }

    private func check(_ list: ListInfo) throws {
        guard list.itemType == itemType else {
            throw CacheError.itemTypeMismatch(
                list: list.key, stored: list.itemType, requested: itemType)
        }
    }
}

extension Repository where Item: Identifiable, Item.ID == Slippers.ID<Item> {
    /// The cached item with `id`, or `nil`.
    ///
    /// - throws: `DecodingError`, or a `DatabaseError`.
    public func item(_ id: Item.ID) throws -> Item? {
        try item(key: id.itemKey)
    }
}
