/// The opaque position of a page in a paginated list.
///
/// A token is whatever the pagination style needs to ask for a page: a page
/// number (`"2"`), an offset (`"50"`), a server cursor (`"eyJpZCI6NTB9"`) or a
/// full URL. Only the ``PageSource`` that made a token interprets it; the
/// store keeps it as text so that paging can resume in another process.
public struct PageToken: RawRepresentable, Hashable, Sendable, Codable {
    /// The token's text.
    public var rawValue: String

    /// Creates a token from its text.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a token from its text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a token that holds an integer, such as a page number or an offset.
    public init(_ value: Int) {
        self.rawValue = String(value)
    }

    /// The token as an integer, when it holds one.
    public var intValue: Int? { Int(rawValue) }
}

extension PageToken: CustomStringConvertible {
    public var description: String { rawValue }
}

extension PageToken: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.rawValue = value
    }
}
