import Foundation

/// Offline writes through a list: the change is in the cache at once, in every list that shows the
/// item (here and in other processes), and waits in the outbox until ``OutboxPush`` sends it.
extension PagedList where Item: Encodable & CacheIdentifiable {
    /// Changes an item: `change` edits a copy, and the members it changed go to the outbox as a JSON
    /// merge patch (`PATCH`). Nothing is kept when nothing changed.
    ///
    /// For example, a like given offline:
    ///
    /// ```swift
    /// try posts.update(post) { $0.liked = true }
    /// ```
    ///
    /// - parameter baseVersion: The version the change is based on, sent as `If-Match`.
    /// - returns: The write kept in the outbox, or `nil` when the change changed nothing.
    /// - throws: ``PagedListWriteError`` when the list has no pager yet or its items have no URL;
    ///   a `SQLiteCacheError` when the item is not cached.
    @discardableResult
    public func update(_ item: Item, baseVersion: String? = nil, _ change: (inout Item) -> Void) throws
        -> PendingWrite?
    {
        var changed = item
        change(&changed)
        let patch = try Self.mergePatch(from: JsonProvider.encode(item), to: JsonProvider.encode(changed))
        guard let patch else { return nil }
        let write = try keep(.merge, json: patch, for: item, baseVersion: baseVersion)
        showLocally { items in
            for index in items.indices where items[index].id == item.id { items[index] = changed }
        }
        return write
    }

    /// Replaces an item with `item` (a `PUT` of the whole item).
    ///
    /// - throws: As ``update(_:baseVersion:_:)``.
    @discardableResult
    public func replace(_ item: Item, baseVersion: String? = nil) throws -> PendingWrite {
        let write = try keep(.replace, json: try JsonProvider.encode(item), for: item, baseVersion: baseVersion)
        showLocally { items in
            for index in items.indices where items[index].id == item.id { items[index] = item }
        }
        return write
    }

    /// Adds an item made locally: it shows in the list at once (at the top by default), and a
    /// `POST` of it to the list's URL is kept in the outbox (``itemURLTemplate``'s
    /// ``ItemURLTemplate/creationURL``: `https://api.example.com/posts/` for a list at
    /// `https://api.example.com/posts/?page=1`).
    ///
    /// Give the item a provisional id no server item has: a negative number, or a UUID. It is
    /// sent whole, as encoded: a server that assigns ids ignores it (Django REST framework's
    /// read-only `id`), one that accepts ids from clients keeps it. When the server acknowledges
    /// the insert, the item takes the id of its answer, and the server's pages decide where it
    /// stands; until then it stays where it was placed, through refreshes. Changes and a delete of
    /// it made meanwhile are kept as for any item and sent after the insert.
    ///
    /// ```swift
    /// try posts.insert(Post(id: ID(-Int.random(in: 1...Int.max)), title: "Written offline"))
    /// ```
    ///
    /// - parameter position: Where it shows until the server has it: ``InsertPosition/first``
    ///   (the top of the first page) or ``InsertPosition/last`` (after the last cached item).
    /// - throws: As ``update(_:baseVersion:_:)``; a `SQLiteCacheError` when the id is cached already.
    @discardableResult
    public func insert(_ item: Item, at position: InsertPosition = .first) throws -> PendingWrite {
        guard let pager else { throw PagedListWriteError.notLoaded }
        let write = try pager.cache.insertLocally(
            RawItem(key: item.itemKey, json: try JsonProvider.encode(item)), inList: pager.list.key,
            itemType: pager.list.itemType, itemURL: itemURLTemplate, at: position)
        showLocally { items in
            guard !items.contains(where: { $0.id == item.id }) else { return }
            if position == .first { items.insert(item, at: 0) } else if endReached { items.append(item) }
        }
        countWrites()
        return write
    }

    /// Deletes an item: it leaves every list at once, and `DELETE` is kept in the outbox.
    ///
    /// - throws: As ``update(_:baseVersion:_:)``.
    @discardableResult
    public func delete(_ item: Item, baseVersion: String? = nil) throws -> PendingWrite {
        let write = try keep(.delete, json: nil, for: item, baseVersion: baseVersion)
        showLocally { items in items.removeAll { $0.id == item.id } }
        return write
    }

    /// Sends the outbox with the list's own client and headers (those of its
    /// ``HTTPListConfiguration``): see ``OutboxPush`` for what a push guarantees.
    ///
    /// For example, when the app comes back online:
    ///
    /// ```swift
    /// let report = try await posts.push()
    /// if report.failed > 0 { showProblems(report.problems) }
    /// ```
    ///
    /// - parameter conflictRule: What a conflict does; the server wins unless given.
    /// - returns: What the push did.
    /// - throws: ``PagedListWriteError/notLoaded`` for a list made over a pager (give ``OutboxPush`` the
    ///   client), a `SQLiteCacheError`, or `CancellationError`. Network failures stop the push and are in the report.
    public func push(conflictRule: OutboxPush.ConflictRule = .serverWins) async throws -> OutboxPush.Report {
        guard let pager, let requests else { throw PagedListWriteError.notLoaded }
        var push = OutboxPush(cache: pager.cache, client: requests.client, headers: requests.headers)
        // The list's own account: the declared one, else the one its credentials derive.
        push.account = pager.account
        push.conflictRule = conflictRule
        let report = try await push.run()
        countWrites()
        return report
    }

    /// The version the server gave of an item: the base of its pending write (the `ETag` a read
    /// gave), else the value of `field` in it, as an entity-tag; `nil` when neither is known.
    ///
    /// - throws: A `SQLiteCacheError`.
    public func version(of item: Item, field: String? = nil) throws -> String? {
        guard let pager else { return nil }
        let write = try pager.cache.pendingWrites().last {
            $0.itemType == pager.list.itemType && $0.itemKey == item.itemKey
        }
        if let base = write?.baseVersion { return EntityTag.quoted(base) }
        guard let field, let json = try pager.cache.item(type: pager.list.itemType, key: item.itemKey)?.item.json,
            let value = JSONMembers.object(json)?[field]
        else { return nil }
        return EntityTag.quoted(value is String ? value as? String ?? "" : "\(value)")
    }

    /// The writes of this list's items still in the outbox, pending or failed, oldest first.
    ///
    /// - throws: A `SQLiteCacheError`.
    public func pendingWrites() throws -> [PendingWrite] {
        guard let pager else { return [] }
        return try pager.cache.pendingWrites().filter { $0.itemType == pager.list.itemType }
    }

    /// Makes a failed write pending again: it goes with the next push. An insert in doubt goes
    /// as a new item, without being looked for: retry it once the server is known not to hold it.
    ///
    /// - throws: A `SQLiteCacheError`.
    public func retry(_ write: PendingWrite) throws {
        try pager?.cache.retryWrite(write.id)
        countWrites()
    }

    /// Drops a write without sending it: its change is undone in every list.
    ///
    /// - throws: A `SQLiteCacheError`.
    public func discard(_ write: PendingWrite) throws {
        try pager?.cache.discardWrite(write.id)
        countWrites()
    }

    private func keep(_ kind: PendingWrite.Kind, json: Data?, for item: Item, baseVersion: String?) throws
        -> PendingWrite
    {
        guard let pager else { throw PagedListWriteError.notLoaded }
        let write = try pager.cache.changeLocally(
            kind, json: json, of: item.itemKey, inList: pager.list.key, itemType: pager.list.itemType,
            itemURL: itemURLTemplate, baseVersion: baseVersion)
        countWrites()
        return write
    }

    /// The members of `new` that differ from `old`, with `null` for those it removed; `nil` when none do.
    static func mergePatch(from old: Data, to new: Data) throws -> Data? {
        guard let before = try JSONSerialization.jsonObject(with: old) as? [String: Any],
            let after = try JSONSerialization.jsonObject(with: new) as? [String: Any]
        else { return new }
        var patch: [String: Any] = [:]
        for (key, value) in after where !((before[key] as? NSObject)?.isEqual(value) ?? false) {
            patch[key] = value
        }
        for key in before.keys where after[key] == nil { patch[key] = NSNull() }
        guard !patch.isEmpty else { return nil }
        return try JSONSerialization.data(withJSONObject: patch, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}

/// Why a list cannot keep a write in the outbox: its ``code`` and the context the code needs.
///
/// A new code is not a breaking change; compare codes with `==`, as in `error.code == .notLoaded`.
public struct PagedListWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: one of the static members, compared with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case notLoaded, noItemURL
        }

        fileprivate let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The list has no pager yet: ``PagedList/load()`` it first.
        public static let notLoaded = Code(.notLoaded)
        /// The list's items have no URL to derive (a GraphQL list): set ``PagedList/itemURLTemplate``.
        public static let noItemURL = Code(.noItemURL)

        /// The code's name, as in `notLoaded`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The key of the list, for ``Code/noItemURL``.
    public let list: String?

    private init(_ code: Code, list: String? = nil) {
        self.code = code
        self.list = list
    }

    /// The list has no pager yet.
    public static let notLoaded = PagedListWriteError(.notLoaded)

    /// The items of `list` have no URL to derive.
    public static func noItemURL(list: String) -> PagedListWriteError {
        PagedListWriteError(.noItemURL, list: list)
    }

    public var description: String {
        switch code.base {
        case .notLoaded: "The list is not loaded yet; load() it before changing its items"
        case .noItemURL:
            "The items of \((list ?? "").shortenedForErrors) have no URL of their own to derive; set itemURLTemplate"
        }
    }
}
