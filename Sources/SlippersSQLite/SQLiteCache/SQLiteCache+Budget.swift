import Foundation
import GRDB
import SlippersStorage
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A budget the cache keeps by itself: see ``CacheBudget``.
extension SQLiteCache {
    /// The least time between two automatic checks of the budget after saves.
    public static let budgetCheckInterval: TimeInterval = 10

    /// Sets the file's budget (`nil` for none) and keeps it at once.
    ///
    /// - returns: What keeping it evicted.
    /// - throws: A `DatabaseError`, or `SQLiteCacheError.readOnly(path:)`.
    @discardableResult
    public func setBudget(_ budget: CacheBudget?, now: Date = Date()) throws -> EvictionReport {
        let text = try budget.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try write { db in
            if let text {
                try db.execute(
                    sql: "INSERT INTO settings (name, value) VALUES ('budget', ?) "
                        + "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    arguments: [text])
            } else {
                try db.execute(sql: "DELETE FROM settings WHERE name = 'budget'")
            }
        }
        return try keepBudget(now: now)
    }

    /// The file's budget, or `nil` when it has none.
    ///
    /// - throws: A `DatabaseError`.
    public func budget() throws -> CacheBudget? {
        try read { db in try Self.budget(in: db) }
    }

    /// Evicts what the budget does not allow: lists not read or written within its age, then
    /// the least recently read until the items fit its bytes. Open lists of live processes and
    /// items with pending writes stay.
    ///
    /// - returns: What was evicted; nothing without a budget.
    /// - throws: A `DatabaseError`.
    @discardableResult
    public func keepBudget(now: Date = Date()) throws -> EvictionReport {
        guard mode == .readWrite else { return EvictionReport() }
        let report = try write { db -> EvictionReport in
            guard let budget = try Self.budget(in: db) else { return EvictionReport() }
            let open = try Self.openListIDs(in: db)
            // Least recently read (or, never read, written) first.
            let candidates = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, max(coalesce(c.read_at, 0), coalesce(max(p.fetched_at), c.created_at)) AS used
                    FROM collections c LEFT JOIN pages p ON p.collection_id = c.id
                    GROUP BY c.id ORDER BY used
                    """
            ).map { (id: $0["id"] as Int64, used: $0["used"] as Double) }.filter { !open.contains($0.id) }
            var report = EvictionReport()
            var remaining = candidates
            if let maxAge = budget.maxAge {
                let cutoff = now.timeIntervalSince1970 - maxAge
                let old = remaining.filter { $0.used < cutoff }
                if !old.isEmpty { report += try Self.deleteLists(old.map(\.id), in: db) }
                remaining.removeAll { $0.used < cutoff }
            }
            if let maxBytes = budget.maxBytes {
                report += try Self.deleteLists(untilItemsFit: maxBytes, in: db) { remaining.map(\.id) }
            }
            return report
        }
        if report != EvictionReport() {
            logger.info(
                "kept the budget",
                metadata: [
                    "lists": "\(report.lists)", "pages": "\(report.pages)", "items": "\(report.items)",
                ])
        }
        return report
    }

    /// Keeps the budget if the last check was more than ``budgetCheckInterval`` ago; errors are logged, not thrown.
    func keepBudgetIfDue(now: Date = Date()) {
        let due = budgetCheck.withLock { last -> Bool in
            guard last.map({ now.timeIntervalSince($0) >= Self.budgetCheckInterval }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        do {
            try keepBudget(now: now)
        } catch {
            logger.warning("could not keep the budget", metadata: ["error": "\(error)"])
        }
    }

    /// Records that this process has the list open and read it now: a budget keeps it while
    /// the process lives (or until as many ``markClosed(_:)`` calls), and counts it as recently read.
    ///
    /// - throws: A `DatabaseError`.
    public func markOpen(_ key: String, now: Date = Date()) throws {
        guard mode == .readWrite else { return }
        let pid = Int64(getpid())
        Self.openInProcess.withLock { $0[path + "\u{0}" + key, default: 0] += 1 }
        try write { db in
            try db.execute(
                sql: "UPDATE collections SET read_at = ? WHERE key = ?", arguments: [now.storedValue, key])
            try db.execute(
                sql: "INSERT OR REPLACE INTO open_lists (collection_key, pid, opened_at) VALUES (?, ?, ?)",
                arguments: [key, pid, now.storedValue])
        }
    }

    /// Records that this process closed the list: once every ``markOpen(_:now:)`` of it in
    /// this process is closed, a budget may evict it.
    ///
    /// - throws: A `DatabaseError`.
    public func markClosed(_ key: String) throws {
        guard mode == .readWrite else { return }
        let pid = Int64(getpid())
        let stillOpen = Self.openInProcess.withLock { open -> Bool in
            let name = path + "\u{0}" + key
            let count = (open[name] ?? 1) - 1
            open[name] = count > 0 ? count : nil
            return count > 0
        }
        guard !stillOpen else { return }
        try write { db in
            try db.execute(
                sql: "DELETE FROM open_lists WHERE collection_key = ? AND pid = ?", arguments: [key, pid])
        }
    }

    /// How many times this process opened each list of each file, by path and key.
    private static let openInProcess = Mutex<[String: Int]>([:])

    // MARK: Inside a transaction

    private static func budget(in db: Database) throws -> CacheBudget? {
        guard try db.tableExists("settings"),
            let text = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE name = 'budget'")
        else { return nil }
        return try? JSONDecoder().decode(CacheBudget.self, from: Data(text.utf8))
    }

    /// The lists open in a live process of this machine; the rows of processes gone are removed.
    private static func openListIDs(in db: Database) throws -> Set<Int64> {
        let rows = try Row.fetchAll(db, sql: "SELECT collection_key, pid FROM open_lists")
        var open: Set<Int64> = []
        for row in rows {
            let (key, pid): (String, Int64) = (row[0], row[1])
            if kill(pid_t(pid), 0) == 0 || errno == EPERM {
                if let id = try Int64.fetchOne(db, sql: "SELECT id FROM collections WHERE key = ?", arguments: [key]) {
                    open.insert(id)
                }
            } else {
                try db.execute(
                    sql: "DELETE FROM open_lists WHERE collection_key = ? AND pid = ?", arguments: [key, pid])
            }
        }
        return open
    }
}
