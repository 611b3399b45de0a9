/// A page of a newest-first list named by an item of it rather than by its place: the items older
/// than an item, newer than it, or around it (Mastodon's `max_id` / `min_id`, Discord's `before` /
/// `after` / `around`).
///
/// A pager asks for such pages to open a list at an item and to fill a gap from its lower side;
/// a source says which relations its server answers (``PageSource/answers(_:)``).
public struct PageAnchor: Hashable, Sendable {
    /// How the page's items stand to the anchor item.
    public enum Relation: Hashable, Sendable, CaseIterable {
        /// The items just older than the item (below it in a newest-first list), without it.
        case olderThan
        /// The items just newer than the item (above it), without it; still listed newest first.
        case newerThan
        /// The items around the item, with it.
        case around
    }

    /// How the page's items stand to the item.
    public var relation: Relation
    /// The item's id.
    public var key: ItemKey

    /// Creates an anchor.
    public init(_ relation: Relation, _ key: ItemKey) {
        self.relation = relation
        self.key = key
    }
}

extension ItemKey {
    /// Whether this key is newer than `other` in a list whose ids grow with time (integers, or
    /// decimal strings such as snowflakes, compared as numbers); `nil` when the two keys have no
    /// such order (UUIDs, names, an integer and a word).
    public func isNewer(than other: ItemKey) -> Bool? {
        switch (decimalDigits, other.decimalDigits) {
        case (let a?, let b?):
            a.count != b.count ? a.count > b.count : a > b
        default:
            nil
        }
    }

    /// The key as decimal digits without leading zeros, when it is a non-negative number or a
    /// string of digits.
    private var decimalDigits: Substring? {
        let text: String
        switch self {
        case .integer(let value):
            guard value >= 0 else { return nil }
            text = String(value)
        case .string(let value):
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            text = value
        }
        let trimmed = text.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : trimmed
    }
}
