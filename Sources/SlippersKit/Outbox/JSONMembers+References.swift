import Foundation

/// A posted body compared with a listed item, when the server writes and reads an item in two
/// shapes: a write-only reference beside a nested read (`author_id` posted, `author: {"id", …}`
/// listed), as serializers commonly do.
extension JSONMembers {
    /// What the members a posted body and a listed item share say about whether they are one item.
    package enum Agreement: Equatable {
        /// Every member they share, generated ones aside, is equal: the members compared.
        case agree([String])
        /// A member they share differs: its name in the posted body.
        case differ(String)
        /// They share no member but generated ones (ids, times, URLs): nothing tells them apart.
        case nothingShared
    }

    /// Compares a posted body with a listed item by the members they share, with a reference
    /// and its object taken as one: `x_id`, `xId` or `xID` posted and `x: {"id"}` listed (or
    /// the other way round), `x_ids` and `xs: [{"id"}, …]` (in any order), and a scalar `x`
    /// and `x: {"id"}`. A number and a numeric string of the same value are equal (a decimal
    /// posted as `1.5` is listed as `"1.50"`). Members for which `isGenerated` is `true` are not
    /// compared: the server makes them, so neither their presence nor their value says anything.
    ///
    /// - returns: `nil` when either is not a JSON object.
    package static func agreement(posted: Data, listed: Data, isGenerated: (String) -> Bool) -> Agreement? {
        guard let left = try? JSONScanner(posted), let right = try? JSONScanner(listed),
            left.root.kind == .object, right.root.kind == .object
        else { return nil }
        var compared: [String] = []
        for key in left.keys(of: left.root) where !isGenerated(key) {
            guard let mine = left.member(key, of: left.root),
                let same = agrees(key, mine, in: left, with: right)
            else { continue }
            guard same else { return .differ(key) }
            compared.append(key)
        }
        return compared.isEmpty ? .nothingShared : .agree(compared)
    }

    /// Whether the posted member `key` agrees with the listed item's; `nil` when the item does not show it.
    private static func agrees(
        _ key: String, _ mine: JSONScanner.Value, in left: JSONScanner, with right: JSONScanner
    ) -> Bool? {
        if let theirs = right.member(key, of: right.root) {
            return referenceAgrees(left, mine, right, theirs)
        }
        if let base = referenceBase(of: key, suffixes: ["_id", "Id", "ID"]),
            let theirs = right.member(base, of: right.root)
        {
            // A listed `author` that is not an object may be the reference or a name shown for
            // it (`"Ada Okafor"`): equal, it is the reference; otherwise it says nothing.
            guard theirs.kind != .object else { return referenceAgrees(left, mine, right, theirs) }
            return scalarsAgree(left, mine, right, theirs) ? true : nil
        }
        if let base = referenceBase(of: key, suffixes: ["_ids", "Ids", "IDs"]),
            let theirs = right.member(base + "s", of: right.root)
        {
            return idsAgree(left, mine, right, theirs)
        }
        if mine.kind == .object {
            for suffix in ["_id", "Id", "ID"] {
                if let theirs = right.member(key + suffix, of: right.root) {
                    return referenceAgrees(left, mine, right, theirs)
                }
            }
        }
        return nil
    }

    /// The name a reference member refers to: `author` for `author_id`, `authorId` or `authorID`.
    private static func referenceBase(of key: String, suffixes: [String]) -> String? {
        for suffix in suffixes where key.hasSuffix(suffix) && key.count > suffix.count {
            let base = String(key.dropLast(suffix.count))
            // `paid` or `squid` are not references: a camelCase suffix follows a lowercase letter.
            if suffix.first?.isUppercase == true, base.last?.isLowercase != true { continue }
            return base
        }
        return nil
    }

    /// Whether two values agree, an object standing for its `id` when the other is not an object;
    /// two objects agree by their ids when both have one, else by the members posted that the
    /// listed one shows.
    private static func referenceAgrees(
        _ left: JSONScanner, _ mine: JSONScanner.Value, _ right: JSONScanner, _ theirs: JSONScanner.Value
    ) -> Bool {
        switch (mine.kind == .object, theirs.kind == .object) {
        case (true, false):
            guard let id = left.member("id", of: mine) else { return false }
            return scalarsAgree(left, id, right, theirs)
        case (false, true):
            guard let id = right.member("id", of: theirs) else { return false }
            return scalarsAgree(left, mine, right, id)
        case (true, true):
            if let mine = left.member("id", of: mine), let theirs = right.member("id", of: theirs) {
                return scalarsAgree(left, mine, right, theirs)
            }
            return left.keys(of: mine).allSatisfy { key in
                guard let one = left.member(key, of: mine), let other = right.member(key, of: theirs) else {
                    return true
                }
                return referenceAgrees(left, one, right, other)
            }
        case (false, false):
            return scalarsAgree(left, mine, right, theirs)
        }
    }

    /// Whether an array of ids and an array of objects (or of ids) hold the same ids, in any order.
    private static func idsAgree(
        _ left: JSONScanner, _ mine: JSONScanner.Value, _ right: JSONScanner, _ theirs: JSONScanner.Value
    ) -> Bool {
        guard mine.kind == .array, theirs.kind == .array else { return false }
        var remaining = right.elements(of: theirs).map { element in
            element.kind == .object ? right.member("id", of: element) : element
        }
        for id in left.elements(of: mine) {
            guard let index = remaining.firstIndex(where: { $0.map { scalarsAgree(left, id, right, $0) } ?? false })
            else { return false }
            remaining.remove(at: index)
        }
        return remaining.isEmpty
    }

    /// Whether two values are equal: a number and a numeric string of the same value, and two
    /// times of the same instant however written (a date alone agrees with a time on that date).
    private static func scalarsAgree(
        _ left: JSONScanner, _ one: JSONScanner.Value, _ right: JSONScanner, _ other: JSONScanner.Value
    ) -> Bool {
        if equal(left, one, right, other) { return true }
        if one.kind == .string, other.kind == .string, let mine = left.string(one), let theirs = right.string(other) {
            return sameTime(mine, theirs)
        }
        let kinds: Set<JSONScanner.Kind> = [one.kind, other.kind]
        guard kinds == [.number, .string] else { return false }
        func number(_ scanner: JSONScanner, _ value: JSONScanner.Value) -> Double? {
            value.kind == .string
                ? scanner.string(value).flatMap(Double.init)
                : Double(String(decoding: scanner.data(of: value), as: UTF8.self))
        }
        guard let mine = number(left, one), let theirs = number(right, other) else { return false }
        return mine == theirs
    }

    /// Whether two texts are ISO 8601 times of one instant (`2026-01-01T10:00:00+01:00` and
    /// `2026-01-01T09:00:00.000Z`), or a date and a time on that date.
    private static func sameTime(_ one: String, _ other: String) -> Bool {
        guard let oneDay = isoDate(one), let otherDay = isoDate(other) else { return false }
        if one.count == 10 || other.count == 10 { return oneDay == otherDay }
        guard let mine = instant(one), let theirs = instant(other) else { return false }
        return abs(mine.timeIntervalSince(theirs)) < 0.001
    }

    /// The `YYYY-MM-DD` a text starts with, when it does.
    private static func isoDate(_ text: String) -> Substring? {
        let day = text.prefix(10)
        let digits = day.enumerated().allSatisfy { index, character in
            index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
        }
        return day.count == 10 && digits ? day : nil
    }

    /// The instant an ISO 8601 time names, with or without fractional seconds.
    private static func instant(_ text: String) -> Date? {
        (try? wholeSecondTime.parse(text)) ?? (try? fractionalTime.parse(text))
    }

    private static let wholeSecondTime = Date.ISO8601FormatStyle()
    private static let fractionalTime = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Whether a member is one a server makes rather than takes: an id, a version, a link or a
    /// time of creation or change, and any member whose name starts with `_` (`_links`, `_rev`).
    ///
    /// - parameter idField: The member the server's answer holds the item's id in.
    package static func isGenerated(_ key: String, idField: String) -> Bool {
        if key == idField || key.hasPrefix("_") { return true }
        let name = key.lowercased().filter { $0 != "_" && $0 != "-" }
        return generatedNames.contains(name)
    }

    /// Names of generated members, lowercased without `_` or `-`.
    private static let generatedNames: Set<String> = [
        "id", "uuid", "guid", "pk", "url", "uri", "self", "href", "link", "links", "etag", "version", "lockversion",
        "revision", "created", "createdat", "createdon", "creationdate", "datecreated", "updated", "updatedat",
        "updatedon", "modified", "modifiedat", "datemodified", "lastmodified", "lastupdated", "insertedat",
        "timestamp",
    ]
}
