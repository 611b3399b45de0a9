import Foundation
import GRDB
import Slippers

extension ItemViews {
    /// A member of an item: a top-level member (`nested` empty), or a member of an object one level down.
    struct MemberPath: Hashable {
        var member: String
        var nested: String
    }

    /// The items of a page written at a time (`?1` the page, `?2` the time): their type and JSON.
    static let pageItemsWrittenSQL = """
        SELECT i.type, i.json FROM page_items pi JOIN items i ON i.id = pi.item_id
        WHERE pi.page_id = ?1 AND i.updated_at = ?2
        """

    /// One member's kinds, upserted: a change only when it is new or brings a kind not yet seen.
    static let recordMemberSQL = """
        INSERT INTO item_members (item_type, member, nested, kinds) VALUES (?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET kinds = kinds | excluded.kinds WHERE kinds <> (kinds | excluded.kinds)
        """

    /// Records the members of the page's items written at `now`, read here rather than by SQLite's
    /// `json_each` (which parses each item twice more); returns whether that brought a new member or kind.
    ///
    /// An item the tape parser refuses has its page read by SQL instead, as every item once was.
    static func recordMembers(ofPage pageID: Int64, writtenAt now: Date, _ db: Database) throws -> Bool {
        var members: [String: [MemberPath: Int]] = [:]
        var type = ""
        var ofType: [MemberPath: Int] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: pageItemsWrittenSQL), arguments: [pageID, now.storedValue])
        while let row = try rows.next() {
            let itemType: String = row[0]
            if itemType != type {
                if !type.isEmpty { members[type] = ofType }
                type = itemType
                ofType = members[type] ?? [:]
            }
            let read = try row.withUnsafeData(atIndex: 1) { json in
                json.map { Self.members(of: $0, into: &ofType) } ?? true
            }
            guard read else {
                try db.cachedStatement(sql: recordPageMembersSQL).execute(arguments: [pageID, now.storedValue])
                return db.changesCount > 0
            }
        }
        if !type.isEmpty { members[type] = ofType }
        let record = try db.cachedStatement(sql: recordMemberSQL)
        var changed = false
        for (type, ofType) in members {
            for (path, kinds) in ofType {
                try record.execute(arguments: [type, path.member, path.nested, kinds])
                if db.changesCount > 0 { changed = true }
            }
        }
        return changed
    }

    /// Adds the members of the item `json` to `members`, as ``recordPageMembersSQL`` reads them: none
    /// when the item is not an object; `false` when the tape parser refuses the JSON.
    static func members(of json: Data, into members: inout [MemberPath: Int]) -> Bool {
        json.withUnsafeBytes { raw in
            guard let tape = JSONTape.parse(raw) else { return false }
            let entries = tape.entries
            guard let first = entries.first, first.kind == .object else { return true }
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            func key(at index: Int) -> String {
                let entry = entries[index]
                return JSONTape.text(of: entry, in: bytes)
                    ?? String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self
                    )
            }
            var position = 1
            for _ in 0..<first.count {
                let member = key(at: position)
                let value = position + 1
                members[MemberPath(member: member, nested: ""), default: 0] |= kindBit(of: entries[value])
                if entries[value].kind == .object {
                    var inner = value + 1
                    for _ in 0..<entries[value].count {
                        members[MemberPath(member: member, nested: key(at: inner)), default: 0] |=
                            kindBit(of: entries[inner + 1])
                        inner = JSONTape.index(after: inner + 1, in: entries)
                    }
                }
                position = JSONTape.index(after: value, in: entries)
            }
            return true
        }
    }

    /// The bit of `item_members.kinds` of a value's kind (``kindBits`` in Swift).
    static func kindBit(of entry: JSONTape.Entry) -> Int {
        switch entry.kind {
        case .null: 1
        case .true: 2
        case .false: 4
        case .number: entry.flag ? 16 : 8
        case .string: 32
        case .array: 64
        case .object: 128
        }
    }
}
