import Foundation
import GRDB
import Slippers

/// The making of the views of ``ItemView``: members recorded as pages are saved, views made from them.
enum ItemViews {
    /// A row of `item_members`.
    struct Member: Hashable {
        var itemType: String
        var member: String
        var nested: String
        var kinds: Int
    }

    /// The bits of `item_members.kinds`, by JSON kind.
    static let kindBits =
        "CASE %@ WHEN 'null' THEN 1 WHEN 'true' THEN 2 WHEN 'false' THEN 4 WHEN 'integer' THEN 8 "
        + "WHEN 'real' THEN 16 WHEN 'text' THEN 32 WHEN 'array' THEN 64 ELSE 128 END"

    /// Records the members of the page's items written at `now`, and makes the views again when
    /// that brought a new member or kind. Never fails the page's save: whatever goes wrong is
    /// undone and left for a later save.
    ///
    /// The page's members are read first; only a page that brings one not recorded yet writes
    /// (in a savepoint of its own), so the pages of a list of one shape write nothing here.
    /// `items`, when given, is the JSON of every row the write inserted or rewrote, all of one
    /// type: they are read from it rather than from the file.
    static func keepCurrent(
        afterWritingPage pageID: Int64, now: Date, items: (json: [Data], type: String)? = nil, _ db: Database
    ) {
        do {
            let found =
                try items.map { try newMembers(of: $0.json, type: $0.type, db) }
                ?? newMembers(ofPage: pageID, writtenAt: now, db)
            if case .members(let members) = found, members.isEmpty { return }
            try db.inSavepoint {
                if try record(found, ofPage: pageID, writtenAt: now, db) { try rebuild(db) }
                return .commit
            }
        } catch {
            // The views are a convenience of the file: the page is what must be saved.
        }
    }

    /// Makes the views of the recorded members when the cache has made none yet (a file whose
    /// items were cached before views existed), in a transaction of its own; never fails.
    static func makeIfNoneWasMade(_ db: Database) {
        do {
            guard try db.tableExists("item_views"),
                try Bool.fetchOne(
                    db, sql: "SELECT NOT EXISTS (SELECT 1 FROM item_views) AND EXISTS (SELECT 1 FROM item_members)")
                    == true
            else { return }
            try db.inTransaction {
                rebuildUnlessItFails(db)
                return .commit
            }
        } catch {
            // The views are made at the next page saved.
        }
    }

    /// Makes the views agree with the recorded members, or leaves them as they were when that fails.
    static func rebuildUnlessItFails(_ db: Database) {
        do {
            try db.inSavepoint {
                try rebuild(db)
                return .commit
            }
        } catch {
            // A view is made again at the next page saved; the write that called this stands.
        }
    }

    /// The members of a page's items written at a time (`?1` the page, `?2` the time), upserted.
    static let recordPageMembersSQL = """
        INSERT INTO item_members (item_type, member, nested, kinds)
        SELECT i.type, e.key, '', \(String(format: kindBits, "e.type"))
        FROM page_items pi JOIN items i ON i.id = pi.item_id, json_each(i.json) e
        WHERE pi.page_id = ?1 AND i.updated_at = ?2 AND json_valid(i.json) AND json_type(i.json) = 'object'
        UNION
        SELECT i.type, e.key, f.key, \(String(format: kindBits, "f.type"))
        FROM page_items pi JOIN items i ON i.id = pi.item_id, json_each(i.json) e, json_each(e.value) f
        WHERE pi.page_id = ?1 AND i.updated_at = ?2 AND json_valid(i.json) AND json_type(i.json) = 'object'
            AND e.type = 'object'
        ON CONFLICT DO UPDATE SET kinds = kinds | excluded.kinds WHERE kinds <> (kinds | excluded.kinds)
        """

    /// Records the members of every cached item, then makes the views the file should have.
    static func rescan(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM item_members")
        try db.execute(
            sql: """
                INSERT INTO item_members (item_type, member, nested, kinds)
                SELECT i.type, e.key, '', \(String(format: kindBits, "e.type"))
                FROM items i, json_each(i.json) e
                WHERE json_valid(i.json) AND json_type(i.json) = 'object'
                UNION
                SELECT i.type, e.key, f.key, \(String(format: kindBits, "f.type"))
                FROM items i, json_each(i.json) e, json_each(e.value) f
                WHERE json_valid(i.json) AND json_type(i.json) = 'object' AND e.type = 'object'
                ON CONFLICT DO UPDATE SET kinds = kinds | excluded.kinds
                """)
        try rebuild(db)
    }

    /// Drops the views the cache made that are no longer right, and makes those missing.
    static func rebuild(_ db: Database) throws {
        let made = try Dictionary(
            uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, sql FROM item_views").map {
                ($0["name"] as String, $0["sql"] as String)
            })
        let wanted = try definitions(db)
        let wantedSQL = Dictionary(uniqueKeysWithValues: wanted.map { ($0.name, $0.sql) })
        for (name, sql) in made where wantedSQL[name] != sql {
            try db.execute(sql: "DROP VIEW IF EXISTS \(quoted(name))")
            try db.execute(sql: "DELETE FROM item_views WHERE name = ?", arguments: [name])
        }
        for view in wanted where made[view.name] != view.sql {
            try db.execute(sql: "CREATE VIEW \(quoted(view.name)) AS \(view.sql)")
            try db.execute(sql: "INSERT INTO item_views (name, sql) VALUES (?, ?)", arguments: [view.name, view.sql])
        }
    }

    /// The views the recorded members call for.
    static func definitions(_ db: Database) throws -> [ItemView] {
        let members = try Row.fetchAll(db, sql: "SELECT item_type, member, nested, kinds FROM item_members").map {
            Member(itemType: $0[0], member: $0[1], nested: $0[2], kinds: $0[3])
        }
        // Names the cache's views must not take: every other table, index, trigger or view of the file.
        let taken = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE name NOT IN (SELECT name FROM item_views)")
        return definitions(of: members, taken: Set(taken.map { $0.lowercased() }))
    }

    /// The views of `members`, none named as one of `taken` (lowercased).
    static func definitions(of members: [Member], taken: Set<String>) -> [ItemView] {
        let byBase = Dictionary(grouping: members) { ListKey.account(ofItemType: $0.itemType).itemType }
        let shortNames = Dictionary(grouping: byBase.keys) { shortName($0) }
        var used = taken
        var views: [ItemView] = []
        for base in byBase.keys.sorted() {
            let short = shortName(base)
            var name = shortNames[short]?.count == 1 ? short : base
            if used.contains(name.lowercased()) || name.lowercased().hasPrefix("sqlite_") { name += "_items" }
            var candidate = name
            var counter = 2
            while used.contains(candidate.lowercased()) {
                candidate = "\(name)_\(counter)"
                counter += 1
            }
            used.insert(candidate.lowercased())
            views.append(view(named: candidate, of: byBase[base] ?? []))
        }
        return views
    }

    /// The part of an item type before its origin: `posts` for `posts@https://api.example.com`.
    static func shortName(_ base: String) -> String {
        guard let at = base.firstIndex(of: "@"), at != base.startIndex else { return base }
        return String(base[..<at])
    }

    /// The view of one base type's members, over its types of every account.
    static func view(named name: String, of members: [Member]) -> ItemView {
        let types = Set(members.map(\.itemType)).sorted()
        var kinds: [String: Int] = [:]
        var nested: [String: [String: Int]] = [:]
        for member in members {
            if member.nested.isEmpty {
                kinds[member.member, default: 0] |= member.kinds
            } else {
                nested[member.member, default: [:]][member.nested, default: 0] |= member.kinds
            }
        }
        var columnNames: Set<String> = [ItemView.accountColumn, ItemView.keyColumn]
        var columns: [ItemView.Column] = []
        func add(_ name: String, _ path: [String], _ kinds: Int) {
            // A name SQL would read as another column's, or a member a JSON path cannot name, is left out.
            guard !path.contains(where: { $0.contains("\"") }), columnNames.insert(name.lowercased()).inserted
            else { return }
            columns.append(ItemView.Column(name: name, path: path, type: sqliteType(of: kinds)))
        }
        for member in kinds.keys.sorted() {
            let memberKinds = kinds[member] ?? 0
            let onlyObject = memberKinds & ~1 == 128
            if !onlyObject { add(member, [member], memberKinds) }
            if memberKinds & 128 != 0 {
                for (inner, innerKinds) in (nested[member] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    add("\(member)_\(inner)", [member, inner], innerKinds)
                }
            }
        }
        let accounts = types.compactMap { type -> String? in
            let account = ListKey.account(ofItemType: type).account
            guard !account.isAnonymous else { return nil }
            return "WHEN \(literal(type)) THEN \(literal(account.name))"
        }
        let account = accounts.isEmpty ? "NULL" : "CASE i.type \(accounts.joined(separator: " ")) END"
        var selected = [
            "\(account) AS \(ItemView.accountColumn)", "i.key AS \(ItemView.keyColumn)",
        ]
        for column in columns {
            let path = "$" + column.path.map { ".\"\($0)\"" }.joined()
            let value = "json_extract(i.json, \(literal(path)))"
            selected.append("\(column.type.map { "CAST(\(value) AS \($0))" } ?? value) AS \(quoted(column.name))")
        }
        let sql =
            "SELECT \(selected.joined(separator: ", ")) FROM items i "
            + "WHERE i.type IN (\(types.map(literal).joined(separator: ", "))) AND i.overlaid <> \(Overlay.deleted.rawValue)"
        return ItemView(name: name, itemTypes: types, columns: columns, sql: sql)
    }

    /// The SQLite type the values of a member share, from the bits of their kinds; `nil` when they differ.
    static func sqliteType(of kinds: Int) -> String? {
        let kinds = kinds & ~1
        switch kinds {
        case 0: return nil
        case 8: return "INTEGER"
        case 16, 24: return "REAL"
        case 2, 4, 6: return "INTEGER"
        case 32, 64, 128: return "TEXT"
        default: return nil
        }
    }

    /// `name` as an SQL identifier, always quoted.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as an SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
