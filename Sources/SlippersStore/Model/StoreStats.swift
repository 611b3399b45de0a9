import Foundation

/// Overall figures of a cache file.
public struct StoreStats: Hashable, Sendable, Codable {
    /// The database path.
    public var path: String
    /// The size of the database file and its write-ahead log, in bytes.
    public var fileSize: Int64
    /// The number of collections.
    public var collections: Int
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
}
