import Foundation
import GRDB
import Slippers
import SlippersStorage

extension SQLiteCache {
    /// The account a list whose requests carry credentials with `credentialDigest` is kept for
    /// when none is declared: `~` and the first 16 hexadecimal digits of an HMAC-SHA-256 of the
    /// digest under this file's key; anonymous for `nil`.
    public func account(derivedFrom credentialDigest: String?) -> Account {
        HeaderFingerprintKey.account(derivedFrom: credentialDigest, key: headerFingerprintKey)
    }

    /// Deletes everything `account` holds in one transaction (its lists with their pages,
    /// its items with their server copies, its pending writes, its watermarks), with SQLite's
    /// `secure_delete` on, then checkpoints the write-ahead log and truncates it, so the removed
    /// values are no longer in the file's bytes. Lists of the account that follow the cache empty.
    ///
    /// For example, on sign-out:
    ///
    /// ```swift
    /// try cache.removeAccount(Account(user.id))
    /// ```
    ///
    /// - returns: What was removed.
    /// - throws: A `SQLiteCacheError` for a read-only file, or a `DatabaseError`.
    @discardableResult
    public func removeAccount(_ account: Account) throws -> AccountRemoval {
        let removal = try writeWithoutTransaction { db -> AccountRemoval in
            let wasSecure = try Bool.fetchOne(db, sql: "PRAGMA secure_delete") ?? false
            try db.execute(sql: "PRAGMA secure_delete = ON")
            defer { if !wasSecure { try? db.execute(sql: "PRAGMA secure_delete = OFF") } }
            var removal = AccountRemoval(account: account)
            try db.inTransaction {
                removal = try Self.deleteRows(of: account, in: db)
                return .commit
            }
            return removal
        }
        try withWriter { writer in
            try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        }
        logger.info(
            "removed account",
            metadata: [
                "account": "\(account)", "lists": "\(removal.lists)", "items": "\(removal.items)",
                "pending_writes": "\(removal.pendingWrites)",
            ])
        return removal
    }

    /// The accounts the file holds lists, items or pending writes of, by name, anonymous included when it holds any.
    public func accounts() throws -> [Account] {
        try read { db in
            ListKey.accounts(
                ofKeys: try String.fetchAll(db, sql: "SELECT key FROM collections"),
                itemTypes: try String.fetchAll(db, sql: "SELECT DISTINCT type FROM items"))
        }
    }

    private static func deleteRows(of account: Account, in db: Database) throws -> AccountRemoval {
        var removal = AccountRemoval(account: account)
        let lists = try Row.fetchAll(db, sql: "SELECT id, key FROM collections").filter {
            ListKey(parsing: $0["key"]).account == account
        }
        for list in lists {
            let key: String = list["key"]
            try db.execute(sql: "DELETE FROM watermarks WHERE collection_key = ?", arguments: [key])
            removal.watermarks += db.changesCount
            try db.execute(sql: "DELETE FROM open_lists WHERE collection_key = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM collections WHERE id = ?", arguments: [list["id"] as Int64])
            removal.lists += db.changesCount
        }
        let types = try String.fetchAll(db, sql: "SELECT DISTINCT type FROM items").filter {
            ListKey.account(ofItemType: $0).account == account
        }
        for type in types {
            try db.execute(
                sql: "DELETE FROM outbox WHERE item_id IN (SELECT id FROM items WHERE type = ?)", arguments: [type])
            removal.pendingWrites += db.changesCount
            // Pages of other accounts never list these items; a page that did would lose them, not keep a dangling id.
            try db.execute(
                sql: "DELETE FROM page_items WHERE item_id IN (SELECT id FROM items WHERE type = ?)", arguments: [type])
            try db.execute(sql: "DELETE FROM items WHERE type = ?", arguments: [type])
            removal.items += db.changesCount
        }
        // The search index only marks a deleted item's tokens as deleted: merging its segments
        // drops them, so that they leave the file's bytes with the items.
        if removal.items > 0 { try SearchIndex.optimize(db) }
        // What the views and the index recorded of the account's types (their names carry the
        // account's), once its items are gone: the views are made again without them.
        let recorded = try String.fetchAll(
            db, sql: "SELECT item_type FROM item_members UNION SELECT item_type FROM search_types"
        ).filter { ListKey.account(ofItemType: $0).account == account }
        for type in recorded {
            try db.execute(sql: "DELETE FROM item_members WHERE item_type = ?", arguments: [type])
            try db.execute(sql: "DELETE FROM search_types WHERE item_type = ?", arguments: [type])
        }
        if !recorded.isEmpty { ItemViews.rebuildUnlessItFails(db) }
        return removal
    }
}
