import Foundation

/// Comparisons of JSON objects by their members, as a write's base and the server's copy are compared.
enum JSONMembers {
    /// The object of a JSON text, or `nil` when it is not an object.
    static func object(_ data: Data?) -> [String: Any]? {
        data.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
    }

    /// Whether the members two objects both have are equal: an item's own `GET` may carry more or
    /// fewer members than the list it was cached from, so only the shared ones say whether it changed.
    static func sharedMembersAgree(_ one: [String: Any], _ other: [String: Any]) -> Bool {
        for (key, value) in one {
            guard let theirs = other[key] else { continue }
            guard equal(value, theirs) else { return false }
        }
        return true
    }

    /// Whether every member of `subset` is in `object` with an equal value.
    static func contains(_ object: [String: Any], _ subset: [String: Any]) -> Bool {
        subset.allSatisfy { key, value in object[key].map { equal(value, $0) } ?? false }
    }

    /// Whether two JSON values are equal: numbers by value, objects by members, arrays in order.
    static func equal(_ one: Any, _ other: Any) -> Bool {
        switch (one, other) {
        case (let one as [String: Any], let other as [String: Any]):
            return one.count == other.count
                && one.allSatisfy { key, value in other[key].map { equal(value, $0) } ?? false }
        case (let one as [Any], let other as [Any]):
            return one.count == other.count && zip(one, other).allSatisfy { equal($0, $1) }
        case (let one as String, let other as String):
            return one == other
        case (is NSNull, is NSNull):
            return true
        case (let one as NSNumber, let other as NSNumber):
            return one == other
        default:
            return false
        }
    }
}
