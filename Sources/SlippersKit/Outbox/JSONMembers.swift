import Foundation

/// Comparisons of JSON objects by their members, as a write's base and the server's copy are compared.
///
/// What every write goes through reads the bytes with ``JSONScanner``, without building objects.
package enum JSONMembers {
    /// Whether a JSON text is an object.
    static func isObject(_ data: Data?) -> Bool {
        guard let data, let scanner = try? JSONScanner(data) else { return false }
        return scanner.root.kind == .object
    }

    /// Whether a JSON text is an object with a member of this name.
    static func hasMember(_ name: String, in data: Data?) -> Bool {
        guard let data, let scanner = try? JSONScanner(data), scanner.root.kind == .object else { return false }
        return scanner.member(name, of: scanner.root) != nil
    }

    /// Whether the members two JSON objects both have are equal: an item's own `GET` may carry more
    /// or fewer members than the list it was cached from, so only the shared ones say whether it
    /// changed; `nil` when either is not an object.
    static func sharedMembersAgree(_ one: Data, _ other: Data) -> Bool? {
        guard let left = try? JSONScanner(one), let right = try? JSONScanner(other),
            left.root.kind == .object, right.root.kind == .object
        else { return nil }
        for key in left.keys(of: left.root) {
            guard let mine = left.member(key, of: left.root), let theirs = right.member(key, of: right.root) else {
                continue
            }
            guard equal(left, mine, right, theirs) else { return false }
        }
        return true
    }

    /// Whether two JSON values are equal: strings by their text, numbers by value, objects by members, arrays in order.
    static func equal(
        _ left: JSONScanner, _ one: JSONScanner.Value, _ right: JSONScanner, _ other: JSONScanner.Value
    ) -> Bool {
        guard one.kind == other.kind else { return false }
        switch one.kind {
        case .object:
            let keys = left.keys(of: one)
            guard Set(keys) == Set(right.keys(of: other)) else { return false }
            return keys.allSatisfy { key in
                guard let mine = left.member(key, of: one), let theirs = right.member(key, of: other) else {
                    return false
                }
                return equal(left, mine, right, theirs)
            }
        case .array:
            let mine = left.elements(of: one)
            let theirs = right.elements(of: other)
            return mine.count == theirs.count && zip(mine, theirs).allSatisfy { equal(left, $0, right, $1) }
        case .string:
            return left.string(one) == right.string(other)
        case .number:
            let mine = String(decoding: left.data(of: one), as: UTF8.self)
            let theirs = String(decoding: right.data(of: other), as: UTF8.self)
            return mine == theirs || (Double(mine).map { $0 == Double(theirs) } ?? false)
        case .bool:
            return left.bool(one) == right.bool(other)
        case .null:
            return true
        }
    }

    /// The object of a JSON text, or `nil` when it is not an object.
    static func object(_ data: Data?) -> [String: Any]? {
        data.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
    }

    /// Whether every member of the object `subset` is in the object `object` with an equal value;
    /// `false` when either is not an object.
    static func contains(_ object: Data, _ subset: Data) -> Bool {
        guard let whole = try? JSONScanner(object), let part = try? JSONScanner(subset),
            whole.root.kind == .object, part.root.kind == .object
        else { return false }
        return part.keys(of: part.root).allSatisfy { key in
            guard let mine = part.member(key, of: part.root), let theirs = whole.member(key, of: whole.root) else {
                return false
            }
            return equal(part, mine, whole, theirs)
        }
    }
}
