/// A typed integer identifier that a server gave to an item.
///
/// The phantom `Subject` keeps ids of different types apart: an `ID<Author>`
/// cannot be passed where an `ID<BlogPost>` is expected. In JSON an id is the
/// bare number, so a model can declare `let id: ID<Self>` and decode
/// `{"id": 42}` directly.
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
/// ```
///
/// An id deliberately has no arithmetic: ids name things, they do not count them.
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
    /// The server's integer value.
    public var rawValue: Int

    /// Creates an id from the server's integer value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Creates an id from the server's integer value.
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }
}

extension ID: Equatable {}

extension ID: Hashable {}

extension ID: Comparable {
    public static func < (lhs: ID, rhs: ID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension ID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self.rawValue = value
    }
}

extension ID: CustomStringConvertible {
    public var description: String { String(rawValue) }
}

extension ID: LosslessStringConvertible {
    /// Creates an id from its decimal text, or `nil` when the text is not an integer.
    public init?(_ description: String) {
        guard let value = Int(description) else { return nil }
        self.rawValue = value
    }
}

extension ID: Decodable {
    /// Decodes an id from a bare JSON number.
    ///
    /// - throws: `DecodingError` when the value is a string, a fractional
    ///   number or out of range.
    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(Int.self)
    }
}

extension ID: Encodable {
    /// Encodes the id as a bare JSON number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension ID: CodingKeyRepresentable {
    /// The id as a dictionary key in JSON: its decimal text.
    public var codingKey: any CodingKey { IDCodingKey(intValue: rawValue) }

    /// Reads an id from a dictionary key: its decimal text, or its integer value.
    public init?<T: CodingKey>(codingKey: T) {
        guard let value = codingKey.intValue ?? Int(codingKey.stringValue) else { return nil }
        self.rawValue = value
    }
}

/// The coding key of an ``ID`` used as a dictionary key.
private struct IDCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    init?(stringValue: String) {
        guard let value = Int(stringValue) else { return nil }
        self.init(intValue: value)
    }
}
