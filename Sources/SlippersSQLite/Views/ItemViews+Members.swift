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

    /// What a page's items written at a time bring to `item_members`.
    enum PageMembers {
        /// The members and kinds not recorded yet, by item type (often none).
        case members([String: [MemberPath: Int]])
        /// An item the tape parser refuses: the page is read by SQL instead, as every item once was.
        case readBySQL
    }

    /// The members of the page's items written at `now` that `item_members` does not hold yet (a
    /// member, or a kind of one), read here rather than by SQLite's `json_each` (which parses each
    /// item twice more). Writes nothing.
    static func newMembers(ofPage pageID: Int64, writtenAt now: Date, _ db: Database) throws -> PageMembers {
        var collector = MemberCollector()
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: pageItemsWrittenSQL), arguments: [pageID, now.storedValue])
        while let row = try rows.next() {
            let itemType: String = row[0]
            let read = try row.withUnsafeData(atIndex: 1) { json -> Bool in
                guard let json else { return true }
                return json.withUnsafeBytes { collector.add($0, ofType: itemType) }
            }
            guard read else { return .readBySQL }
        }
        return try collector.unrecorded(db)
    }

    /// The members of items of `type` just written, as their JSON (`items`), that `item_members`
    /// does not hold yet: what ``newMembers(ofPage:writtenAt:_:)`` finds for a page whose write
    /// wrote exactly them, without reading them back. Writes nothing.
    static func newMembers(of items: [Data], type: String, _ db: Database) throws -> PageMembers {
        var collector = MemberCollector()
        for json in items {
            guard json.withUnsafeBytes({ collector.add($0, ofType: type) }) else { return .readBySQL }
        }
        return try collector.unrecorded(db)
    }

    /// The members and kinds of items added one at a time, by item type.
    ///
    /// Items of a page mostly share their members and kinds: an item whose shape is the one read
    /// last, of the same type, adds nothing, and is only compared.
    struct MemberCollector {
        private var members: [String: [MemberPath: Int]] = [:]
        private var type = ""
        private var ofType: [MemberPath: Int] = [:]
        private var tape = JSONTape()
        private var shape: [UInt8] = []
        private var lastShape: [UInt8] = []
        private var lastShapeType = ""

        /// Adds the members of one item's JSON; `false` when the tape parser refuses it.
        mutating func add(_ raw: UnsafeRawBufferPointer, ofType itemType: String) -> Bool {
            if itemType != type {
                if !type.isEmpty { members[type] = ofType }
                type = itemType
                ofType = members[type] ?? [:]
            }
            guard tape.reparse(raw) else { return false }
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            ItemViews.shape(of: tape, in: bytes, into: &shape)
            if itemType == lastShapeType, shape == lastShape { return true }
            ItemViews.members(of: tape, in: bytes, into: &ofType)
            swap(&shape, &lastShape)
            lastShapeType = itemType
            return true
        }

        /// The members added that `item_members` does not hold yet: one read of each type's rows.
        consuming func unrecorded(_ db: Database) throws -> PageMembers {
            if !type.isEmpty { members[type] = ofType }
            let recordedOfType = try db.cachedStatement(
                sql: "SELECT member, nested, kinds FROM item_members WHERE item_type = ?")
            for (type, ofType) in members {
                var known: [MemberPath: Int] = [:]
                let rows = try Row.fetchCursor(recordedOfType, arguments: [type])
                while let row = try rows.next() { known[MemberPath(member: row[0], nested: row[1])] = row[2] }
                let new = ofType.filter { path, kinds in
                    guard let recorded = known[path] else { return true }
                    return recorded | kinds != recorded
                }
                members[type] = new.isEmpty ? nil : new
            }
            return .members(members)
        }
    }

    /// Records what ``newMembers(ofPage:writtenAt:_:)`` found; whether that brought a new member or kind.
    static func record(_ found: PageMembers, ofPage pageID: Int64, writtenAt now: Date, _ db: Database) throws -> Bool {
        switch found {
        case .readBySQL:
            try db.cachedStatement(sql: recordPageMembersSQL).execute(arguments: [pageID, now.storedValue])
            return db.changesCount > 0
        case .members(let members):
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
    }

    /// Adds the members of the item indexed by `tape` (of `bytes`) to `members`, as
    /// ``recordPageMembersSQL`` reads them: none when the item is not an object.
    static func members(of tape: JSONTape, in bytes: UnsafeBufferPointer<UInt8>, into members: inout [MemberPath: Int])
    {
        let entries = tape.entries
        func key(at index: Int) -> String {
            let entry = entries[index]
            return JSONTape.text(of: entry, in: bytes)
                ?? String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
        }
        forEachMember(of: entries) { keyIndex, value, parent in
            let path =
                parent.map { MemberPath(member: key(at: $0), nested: key(at: keyIndex)) }
                ?? MemberPath(member: key(at: keyIndex), nested: "")
            members[path, default: 0] |= kindBit(of: entries[value])
        }
    }

    /// What ``members(of:in:into:)`` would add for the item indexed by `tape`, as bytes: each
    /// member's key as written, a 0 (which a JSON string cannot hold raw), its kind's bit, and
    /// after an object's value its own members the same way, closed by a 1. Two items with the
    /// same shape add the same members and kinds.
    static func shape(of tape: JSONTape, in bytes: UnsafeBufferPointer<UInt8>, into shape: inout [UInt8]) {
        shape.removeAll(keepingCapacity: true)
        let entries = tape.entries
        forEachMember(of: entries) { keyIndex, value, _ in
            let key = entries[keyIndex]
            shape.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[Int(key.start)..<Int(key.end)]))
            shape.append(0)
            shape.append(UInt8(truncatingIfNeeded: kindBit(of: entries[value])))
        } objectEnded: {
            shape.append(1)
        }
    }

    /// Calls `visit` with the entries of each member an item's views are made of, in document
    /// order: a top-level member's key and value (`parent` nil), then, when the value is an
    /// object, each of its members with `parent` the top-level key, then `objectEnded`. Nothing
    /// when the item is not an object.
    private static func forEachMember(
        of entries: [JSONTape.Entry], _ visit: (_ key: Int, _ value: Int, _ parent: Int?) -> Void,
        objectEnded: () -> Void = {}
    ) {
        guard let first = entries.first, first.kind == .object else { return }
        var position = 1
        for _ in 0..<first.count {
            let value = position + 1
            visit(position, value, nil)
            if entries[value].kind == .object {
                var inner = value + 1
                for _ in 0..<entries[value].count {
                    visit(inner, inner + 1, position)
                    inner = JSONTape.index(after: inner + 1, in: entries)
                }
                objectEnded()
            }
            position = JSONTape.index(after: value, in: entries)
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
