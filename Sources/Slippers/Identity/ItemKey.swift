/// The untyped identity of a cached item: an integer or a string id.
///
/// The cache keys items by `(type, ItemKey)`. Most APIs use integer ids
/// (``ID``); some (Stripe's, for example) use strings such as `"cus_9s6XKzkNRiz8i3"`.
public enum ItemKey: Hashable, Sendable {
    /// An integer id, as carried by ``ID``.
    case integer(Int)
    /// A string id.
    case string(String)
}

extension ItemKey: CustomStringConvertible {
    /// The id as text: the decimal number or the string itself.
    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): value
        }
    }
}

extension ItemKey: Comparable {
    /// Integers order before strings; integers numerically, strings by their characters.
    public static func < (lhs: ItemKey, rhs: ItemKey) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let a), .integer(let b)): a < b
        case (.string(let a), .string(let b)): a < b
        case (.integer, .string): true
        case (.string, .integer): false
        }
    }
}

extension ItemKey: Codable {
    /// Decodes a bare JSON number or string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the key as a bare JSON number or string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

/// A value that has an id the cache can key it by.
///
/// Any `Identifiable` type whose id is an ``ID``, a `String` or an `Int`
/// conforms by declaring the conformance; nothing needs to be written.
public protocol CacheIdentifiable {
    /// The key the cache files this value under.
    var itemKey: ItemKey { get }
}

extension CacheIdentifiable where Self: Identifiable, ID == Slippers.ID<Self> {
    public var itemKey: ItemKey { id.rawValue }
}

extension CacheIdentifiable where Self: Identifiable, ID == String {
    public var itemKey: ItemKey { .string(id) }
}

extension CacheIdentifiable where Self: Identifiable, ID == Int {
    public var itemKey: ItemKey { .integer(id) }
}

extension ID {
    /// The untyped key of this id.
    public var itemKey: ItemKey { rawValue }
}

/// A value made from a bare JSON number or string alone, which a decoder of the package may build
/// without asking it to decode itself (``ID`` and ``ItemKey``).
package protocol ItemKeyDecodable {
    /// Creates the value from the key a JSON number or string gave.
    init(itemKey: ItemKey)
}

extension ItemKey: ItemKeyDecodable {
    package init(itemKey: ItemKey) { self = itemKey }
}

extension ID: ItemKeyDecodable {
    package init(itemKey: ItemKey) { self.init(rawValue: itemKey) }
}

extension ItemKey: ExpressibleByIntegerLiteral {
    /// An integer key: `42` is `.integer(42)`.
    public init(integerLiteral value: Int) {
        self = .integer(value)
    }
}

extension ItemKey: ExpressibleByStringLiteral {
    /// A string key: `"cus_9s6X"` is `.string("cus_9s6X")`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

/// An id that gives the key the cache files its item under, whatever its type.
package protocol ItemKeyConvertible {
    /// The key of the item with this id.
    var itemKey: ItemKey { get }
}

extension ID: ItemKeyConvertible {}

extension ItemKey: ItemKeyConvertible {
    package var itemKey: ItemKey { self }
}

extension ItemKey {
    /// The key of an item with the id `id` (an ``ID``, an `Int`, a `String`, an ``ItemKey``);
    /// `nil` for an id of another type.
    package init?(id: some Hashable) {
        switch id {
        case let id as any ItemKeyConvertible: self = id.itemKey
        case let id as Int: self = .integer(id)
        case let id as String: self = .string(id)
        default: return nil
        }
    }
}
