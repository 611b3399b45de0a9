import Foundation

/// Overall figures of a cache file.
public struct CacheStats: Hashable, Sendable, Codable {
    /// The database path.
    public var path: String
    /// The size of the database file and its write-ahead log, in bytes.
    public var fileSize: Int64
    /// The number of lists.
    public var lists: Int
    /// The number of cached pages.
    public var pages: Int
    /// The number of stored items.
    public var items: Int
    /// The number of items no page references (collectable).
    public var unreferencedItems: Int
    /// The total size of the items' JSON, in bytes.
    public var itemBytes: Int64
    /// When the oldest cached page was fetched.
    public var oldestPage: Date?
    /// When the newest cached page was fetched.
    public var newestPage: Date?
    /// The last migration applied to the file.
    public var schemaVersion: String?
    /// The accounts the cache holds data of, by name (`anonymous` for the anonymous account; a
    /// derived one as `~` and a fingerprint, never a credential).
    public var accounts: [String] = []

    /// Makes the figures of a cache; `fileSize` is the database's size on disk. For backends.
    package init(
        path: String, fileSize: Int64, lists: Int, pages: Int, items: Int, unreferencedItems: Int,
        itemBytes: Int64, oldestPage: Date?, newestPage: Date?, schemaVersion: String?
    ) {
        self.path = path
        self.fileSize = fileSize
        self.lists = lists
        self.pages = pages
        self.items = items
        self.unreferencedItems = unreferencedItems
        self.itemBytes = itemBytes
        self.oldestPage = oldestPage
        self.newestPage = newestPage
        self.schemaVersion = schemaVersion
    }
}

extension CacheStats {
    /// Encodes the figures as one object, with `null` for an absent date or schema version rather than no key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(fileSize, forKey: .fileSize)
        try container.encode(lists, forKey: .lists)
        try container.encode(pages, forKey: .pages)
        try container.encode(items, forKey: .items)
        try container.encode(unreferencedItems, forKey: .unreferencedItems)
        try container.encode(itemBytes, forKey: .itemBytes)
        try container.encode(oldestPage, forKey: .oldestPage)
        try container.encode(newestPage, forKey: .newestPage)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(accounts, forKey: .accounts)
    }
}
