import Foundation
import PostgresNIO
import Slippers
import SlippersStorage

extension PostgresCache {
    /// The database's URL, without its password.
    public var locationDescription: String { location.description }

    /// A list with its statistics, or `nil` when it is not cached.
    public func list(_ key: String) async throws -> ListInfo? {
        try await mappingErrors {
            try await client.withConnection { [self] connection in
                try await PostgresRows.first(
                    PostgresQuery(
                        unsafeSQL: PostgresRows.listInfoSQL + " WHERE c.key = $1 GROUP BY c.id",
                        binds: try Self.binds(key)),
                    on: connection, logger: logger
                ).map(PostgresRows.listInfo)
            }
        }
    }

    /// Every list with its statistics, ordered by key (byte order, as in an SQLite file).
    public func lists() async throws -> [ListInfo] {
        try await mappingErrors {
            try await client.withConnection { [self] connection in
                try await PostgresRows.all(
                    PostgresQuery(
                        unsafeSQL: PostgresRows.listInfoSQL + " GROUP BY c.id ORDER BY c.key COLLATE \"C\""),
                    on: connection, logger: logger
                ).map(PostgresRows.listInfo)
            }
        }
    }

    /// The rows of a list's cached pages, in order.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, or a ``PostgresCacheError``.
    public func pages(in key: String) async throws -> [PageInfo] {
        try await mappingErrors {
            try await client.withConnection { [self] connection in
                guard
                    try await PostgresRows.first(
                        "SELECT id FROM collections WHERE key = \(key)", on: connection, logger: logger) != nil
                else { throw CacheError.listNotFound(key: key) }
                return try await PostgresRows.all(
                    PostgresQuery(
                        unsafeSQL: "SELECT \(PostgresRows.pageColumnsSQL) FROM pages p "
                            + "JOIN collections c ON c.id = p.collection_id WHERE c.key = $1 ORDER BY p.idx",
                        binds: try Self.binds(key)),
                    on: connection, logger: logger
                ).map(PostgresRows.pageInfo)
            }
        }
    }

    /// The cached page at `index` with its items, or `nil` when it is not cached.
    public func page(at index: Int, in key: String) async throws -> StoredPage? {
        try await mappingErrors {
            try await client.withTransaction { [self] connection in
                guard
                    let row = try await PostgresRows.first(
                        PostgresQuery(
                            unsafeSQL: "SELECT \(PostgresRows.pageColumnsSQL) FROM pages p "
                                + "JOIN collections c ON c.id = p.collection_id WHERE c.key = $1 AND p.idx = $2",
                            binds: try Self.binds(key, index)),
                        on: connection, logger: logger)
                else { return nil }
                let pageID = try row["id"].decode(Int64.self)
                var edited: Set<ItemKey> = []
                var items: [RawItem] = []
                for item in try await PostgresRows.all(
                    """
                    SELECT i.key, i.json, i.edited_locally FROM page_items pi JOIN items i ON i.id = pi.item_id
                    WHERE pi.page_id = \(pageID) ORDER BY pi.position
                    """, on: connection, logger: logger)
                {
                    let raw = try PostgresRows.item(item)
                    if try item["edited_locally"].decode(Bool.self) { edited.insert(raw.key) }
                    items.append(raw)
                }
                return StoredPage(info: try PostgresRows.pageInfo(row), items: items, editedKeys: edited)
            }
        }
    }

    /// Calls `body` with each item of a list in list order, each id once; rows are streamed, not loaded.
    ///
    /// - throws: `CacheError.listNotFound(key:)`, what `body` throws, or a ``PostgresCacheError``.
    public func forEachItem(in key: String, _ body: (RawItem) throws -> Void) async throws {
        guard try await listExists(key) else { throw CacheError.listNotFound(key: key) }
        try await mappingErrors {
            try await client.withConnectionStreaming { connection in
                let rows = try await connection.query(
                    """
                    SELECT i.key, i.json FROM (
                        SELECT DISTINCT ON (pi.item_id) pi.item_id, p.idx, pi.position
                        FROM pages p JOIN page_items pi ON pi.page_id = p.id
                        WHERE p.collection_id = (SELECT id FROM collections WHERE key = \(key))
                        ORDER BY pi.item_id, p.idx, pi.position
                    ) first JOIN items i ON i.id = first.item_id
                    ORDER BY first.idx, first.position
                    """, logger: logger)
                for try await row in rows {
                    try body(try PostgresRows.item(row.makeRandomAccess()))
                }
            }
        }
    }

    /// A stored item by type and id, or `nil`.
    public func item(type: String, key: ItemKey) async throws -> StoredItem? {
        try await mappingErrors {
            try await client.withConnection { [self] connection in
                try await PostgresRows.first(
                    "SELECT key, json, updated_at FROM items WHERE type = \(type) AND key = \(key.postgresText)",
                    on: connection, logger: logger
                ).map { row in
                    StoredItem(
                        type: type, item: try PostgresRows.item(row),
                        updatedAt: Date(timeIntervalSince1970: try row["updated_at"].decode(Double.self)))
                }
            }
        }
    }

    /// The stored item types `name` stands for, sorted; see `SQLiteCache.itemTypes(named:)`.
    public func itemTypes(named name: String) async throws -> [String] {
        let name = try await listKey(typed: name)
        return try await mappingErrors {
            try await client.withConnection { [self] connection in
                if let row = try await PostgresRows.first(
                    "SELECT item_type FROM collections WHERE key = \(name)", on: connection, logger: logger)
                {
                    return [try row["item_type"].decode(String.self)]
                }
                let types = try await PostgresRows.all(
                    "SELECT item_type FROM (SELECT DISTINCT item_type FROM collections) t ORDER BY item_type COLLATE \"C\"",
                    on: connection, logger: logger
                ).map { try $0["item_type"].decode(String.self) }
                if types.contains(name) { return [name] }
                return types.filter { $0.hasPrefix(name + "@") }
            }
        }
    }

    /// The key of the list a person typed; see `SQLiteCache.listKey(typed:)`.
    public func listKey(typed: String) async throws -> String {
        let masked = CredentialQuery.masking(typed)
        guard masked != typed else { return typed }
        if try await listExists(typed) { return typed }
        return try await listExists(masked) ? masked : typed
    }

    /// Whether a list has `key`: its row by the unique key, without its statistics.
    func listExists(_ key: String) async throws -> Bool {
        try await mappingErrors {
            !(try await client.rows("SELECT 1 FROM collections WHERE key = \(key)")).isEmpty
        }
    }

    /// The binds of a query written as text with `$1`, `$2`…
    static func binds(_ values: any PostgresThrowingDynamicTypeEncodable...) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { try bindings.append(value) }
        return bindings
    }
}
