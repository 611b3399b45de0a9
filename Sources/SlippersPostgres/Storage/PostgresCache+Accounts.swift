import Foundation
import PostgresNIO
import Slippers
import SlippersStorage

extension PostgresCache {
    /// The account a list whose requests carry credentials with `credentialDigest` is kept for
    /// when none is declared: `~` and the first 16 hexadecimal digits of an HMAC-SHA-256 of the
    /// digest under this database's key; anonymous for `nil`. Every worker on the database derives the same.
    public func account(derivedFrom credentialDigest: String?) -> Account {
        HeaderFingerprintKey.account(derivedFrom: credentialDigest, key: headerFingerprintKey)
    }

    /// Deletes everything `account` holds in one transaction: its lists with their pages,
    /// its items, its watermarks and the pages staged for its lists. PostgreSQL marks deleted rows
    /// dead and reclaims them on `VACUUM`; the disk's blocks are the server's to scrub.
    ///
    /// - returns: What was removed (a PostgreSQL cache has no outbox: no pending write).
    public func removeAccount(_ account: Account) async throws -> AccountRemoval {
        try await mappingErrors {
            try await client.withTransactionStreaming { connection in
                var removal = AccountRemoval(account: account)
                let keys = try await PostgresRows.all("SELECT key FROM collections", on: connection, logger: logger)
                    .map { try $0["key"].decode(String.self) }
                    .filter { ListKey(parsing: $0).account == account }
                let staged = try await PostgresRows.all(
                    "SELECT DISTINCT collection_key FROM shared_pages", on: connection, logger: logger
                ).map { try $0["collection_key"].decode(String.self) }.filter { shared in
                    let list = shared.split(separator: "#", omittingEmptySubsequences: false).dropLast().joined(
                        separator: "#")
                    return ListKey(parsing: list).account == account
                }
                _ = try await PostgresRows.all(
                    "DELETE FROM shared_pages WHERE collection_key = ANY(\(staged))", on: connection, logger: logger)
                removal.watermarks = try await PostgresRows.all(
                    "DELETE FROM watermarks WHERE collection_key = ANY(\(keys)) RETURNING collection_key",
                    on: connection, logger: logger
                ).count
                removal.lists = try await PostgresRows.all(
                    "DELETE FROM collections WHERE key = ANY(\(keys)) RETURNING id", on: connection, logger: logger
                ).count
                let types = try await PostgresRows.all(
                    "SELECT DISTINCT type FROM items", on: connection, logger: logger
                ).map { try $0["type"].decode(String.self) }.filter {
                    ListKey.account(ofItemType: $0).account == account
                }
                _ = try await PostgresRows.all(
                    "DELETE FROM page_items WHERE item_id IN (SELECT id FROM items WHERE type = ANY(\(types)))",
                    on: connection, logger: logger)
                removal.items = try await PostgresRows.all(
                    "DELETE FROM items WHERE type = ANY(\(types)) RETURNING id", on: connection, logger: logger
                ).count
                return removal
            }
        }
    }

    /// The accounts the database holds lists or items of, by name; the anonymous account among them when it holds any.
    public func accounts() async throws -> [Account] {
        try await mappingErrors {
            try await client.withConnection { [self] connection in
                let keys = try await PostgresRows.all("SELECT key FROM collections", on: connection, logger: logger)
                    .map { try $0["key"].decode(String.self) }
                let types = try await PostgresRows.all(
                    "SELECT DISTINCT type FROM items", on: connection, logger: logger
                ).map { try $0["type"].decode(String.self) }
                return ListKey.accounts(ofKeys: keys, itemTypes: types)
            }
        }
    }
}
