/// A typed identifier that a server gave to an item: a number or a string.
///
/// The phantom `Subject` keeps ids of different types apart: an `ID<Author>`
/// cannot be passed where an `ID<BlogPost>` is expected. In JSON an id is the
/// bare number or the bare string the server sent, so a model can declare
/// `let id: ID<Self>` and decode `{"id": 42}`, `{"id": "109384029384756"}` (a
/// snowflake), `{"id": "3f2c…"}` (a UUID) or `{"id": "@ann:example.org"}` alike.
///
/// For example:
///
/// ```swift
/// struct BlogPost: Codable, Identifiable {
///     let id: ID<BlogPost>
///     let title: String
/// }
/// let post: BlogPost = try JsonProvider.decode(#"{"id": 42, "title": "Hi"}"#)
/// post.id == 42  // true
/// let status: BlogPost = try JsonProvider.decode(#"{"id": "109384029384756", "title": "Hi"}"#)
/// status.id == "109384029384756"  // true
/// ```
///
/// A number and a string are different ids, as they are in the server's JSON:
/// `ID<Post>(42)` is not `ID<Post>("42")`. An id deliberately has no
/// arithmetic: ids name things, they do not count them.
///
/// Inside a model that is `Identifiable`, a bare `ID` names the protocol's
/// associated type (`Self.ID`, here `ID<Post>` itself), not this generic type;
/// with its argument, `ID<Post>`, it names this type. Where the two still
/// clash (a nested type, an extension), write the module's name:
/// `Slippers.ID<Post>`.
///
/// As a dictionary key an id encodes as the JSON object key `"42"`
/// (`CodingKeyRepresentable`), so `[ID<Post>: Int]` is a JSON object.
public struct ID<Subject>: RawRepresentable, Sendable {
    /// The server's value: an integer or a string.
    public var rawValue: ItemKey

    /// Creates an id from the server's value.
    public init(rawValue: ItemKey) {
        self.rawValue = rawValue
    }

    /// Creates an id from the server's integer value.
    public init(_ value: Int) {
        self.rawValue = .integer(value)
    }

    /// Creates an id from the server's string value: a snowflake, a UUID, a name.
    public init(_ value: String) {
        self.rawValue = .string(value)
    }

    /// The server's value when it is an integer.
    public var intValue: Int? {
        if case .integer(let value) = rawValue { return value }
        return nil
    }

    /// The server's value when it is a string.
    public var stringValue: String? {
        if case .string(let value) = rawValue { return value }
        return nil
    }
}

extension ID: Equatable {}

extension ID: Hashable {}

extension ID: Comparable {
    /// Integer ids order numerically and before string ids; string ids order by their characters.
    public static func < (lhs: ID, rhs: ID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension ID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self.rawValue = .integer(value)
    }
}

extension ID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.rawValue = .string(value)
    }
}

extension ID: CustomStringConvertible {
    /// The id as text: the decimal number or the string itself.
    public var description: String { rawValue.description }
}

extension ID: Decodable {
    /// Decodes an id from a bare JSON number (an integer) or a bare JSON string.
    ///
    /// - throws: `DecodingError` when the value is a fractional or out-of-range
    ///   number, a boolean, `null`, an array or an object.
    public init(from decoder: any Decoder) throws {
        self.rawValue = try ItemKey(from: decoder)
    }
}

extension ID: Encodable {
    /// Encodes the id as the bare JSON number or string it was decoded from.
    public func encode(to encoder: any Encoder) throws {
        try rawValue.encode(to: encoder)
    }
}

extension ID: CodingKeyRepresentable {
    /// The id as a dictionary key in JSON: its text.
    public var codingKey: any CodingKey { IDCodingKey(rawValue) }

    /// Reads an id from a dictionary key: an integer when the key is one, else the key's text.
    public init?<T: CodingKey>(codingKey: T) {
        if let value = codingKey.intValue ?? Int(codingKey.stringValue) {
            self.rawValue = .integer(value)
        } else if codingKey.stringValue.isEmpty {
            return nil
        } else {
            self.rawValue = .string(codingKey.stringValue)
        }
    }
}

/// The coding key of an ``ID`` used as a dictionary key.
private struct IDCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ key: ItemKey) {
        self.stringValue = key.description
        if case .integer(let value) = key { self.intValue = value }
    }

    init(intValue: Int) {
        self.init(.integer(intValue))
    }

    init?(stringValue: String) {
        self.init(Int(stringValue).map(ItemKey.integer) ?? .string(stringValue))
    }
}
