import Foundation
import GRDB
import SlippersStorage

extension SQLiteCache {
    /// Overall figures of the cache file.
    ///
    /// - throws: A `DatabaseError`.
    public func stats() throws -> CacheStats {
        let path = path
        var stats = try read { db in
            let counts = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT count(*) FROM collections) AS lists,
                        (SELECT count(*) FROM pages) AS pages,
                        (SELECT count(*) FROM items) AS items,
                        (SELECT count(*) FROM items WHERE NOT EXISTS
                            (SELECT 1 FROM page_items WHERE item_id = items.id)) AS unreferenced,
                        (SELECT coalesce(sum(length(json)), 0) FROM items) AS item_bytes,
                        (SELECT min(fetched_at) FROM pages) AS oldest,
                        (SELECT max(fetched_at) FROM pages) AS newest
                    """)
            guard let counts else { throw SQLiteCacheError.corrupt(path: path, detail: "no statistics row") }
            return CacheStats(
                path: path,
                fileSize: 0,
                lists: counts["lists"],
                pages: counts["pages"],
                items: counts["items"],
                unreferencedItems: counts["unreferenced"],
                itemBytes: counts["item_bytes"],
                oldestPage: Date(storedValue: counts["oldest"] as Double?),
                newestPage: Date(storedValue: counts["newest"] as Double?),
                schemaVersion: try Schema.migrator.appliedMigrations(db).last)
        }
        stats.accounts = try accounts().map(\.description)
        stats.fileSize = [path, path + "-wal"].reduce(0) { sum, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value
            return sum + (size ?? 0)
        }
        return stats
    }

    /// Checks the file's health: integrity, schema version, orphan rows, page counts.
    ///
    /// - throws: A `DatabaseError` when the check itself cannot run.
    public func diagnose() throws -> Diagnosis {
        var diagnosis = try read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                "\(row[0] as String? ?? "?") row \(row[1] as Int64? ?? 0) references a missing \(row[2] as String? ?? "?")"
            }
            let inconsistent = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.key, p.idx, p.item_count, count(pi.position) AS members
                    FROM pages p JOIN collections c ON c.id = p.collection_id
                    LEFT JOIN page_items pi ON pi.page_id = p.id
                    GROUP BY p.id HAVING members != p.item_count
                    """
            ).map { row in
                "page \(row["idx"] as Int) of \"\(row["key"] as String)\" lists \(row["members"] as Int) "
                    + "items but records \(row["item_count"] as Int)"
            }
            return Diagnosis(
                integrity: integrity,
                appliedMigrations: try Schema.migrator.appliedMigrations(db),
                knownMigrations: Schema.knownMigrations,
                orphans: orphans,
                inconsistentPages: inconsistent)
        }
        if diagnosis.appliedMigrations.contains(SearchIndex.migration), try !searchIndexAgreesWithItems() {
            diagnosis.searchIndex = [
                "the full-text index does not hold one entry per cached item: doctor --repair rebuilds it"
            ]
        }
        diagnosis.writesOfDerivedAccounts = try pendingWriteCounts().filter(\.key.isDerived)
            .sorted { $0.key < $1.key }
            .map { account, count in
                "\(account) has \(count) pending write\(count == 1 ? "" : "s"), sent only by a push with the "
                    + "credentials that made them: after a token rotation, declare --account instead"
            }
        return diagnosis
    }
}
