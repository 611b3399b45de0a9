/// An object encoded in the value of one query parameter, in rison or in JSON, such as the
/// `q` of `?q=(page:0,page_size:100)` or of `?q={"page":1,"per_page":20}`.
///
/// Some APIs take their page number and size as members of such an object, beside filters
/// and an order. An encoded object is read, one member changed, and written back in the same
/// notation with every other member as it was, in the same order:
///
/// ```swift
/// var query = EncodedQueryObject("(filters:!((col:name,opr:ct,value:'a b')),page:0,page_size:100)")
/// query?.setInteger(1, for: "page")
/// query?.text  // (filters:!((col:name,opr:ct,value:'a b')),page:1,page_size:100)
/// ```
public struct EncodedQueryObject: Sendable, Hashable {
    /// How an object is written in a parameter's value.
    public enum Notation: String, Sendable, Hashable {
        /// Rison (`(page:0,order:'name desc')`): JSON's values with fewer characters that a URL escapes.
        case rison
        /// JSON (`{"page":0}`).
        case json
    }

    /// A value of an encoded object.
    public indirect enum Value: Sendable, Hashable {
        /// An object, its members in the order they were written.
        case object([Member])
        /// An array.
        case array([Value])
        /// A string.
        case string(String)
        /// A number, as its text (`100`, `-1.5e3`), so that it is written back as it was read.
        case number(String)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null

        /// The value as an integer, when it is a number that is one.
        public var integer: Int? {
            guard case .number(let text) = self else { return nil }
            return Int(text)
        }
    }

    /// A member of an object: its name and value.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        package var name: String
        /// The member's value.
        public var value: Value

        /// Creates a member.
        public init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// The notation the object was written in, and is written back in.
    public var notation: Notation
    /// The object's members, in order.
    package var members: [Member]

    /// Creates an object of these members.
    public init(notation: Notation, members: [Member] = []) {
        self.notation = notation
        self.members = members
    }

    /// Reads a parameter's value as an encoded object: rison when it starts with `(`, JSON
    /// when it starts with `{`; `nil` when it is neither, or not well formed.
    public init?(_ text: String) {
        let value: Value?
        let notation: Notation
        switch text.first {
        case "(":
            notation = .rison
            value = Self.parseRison(text)
        case "{":
            notation = .json
            value = Self.parseJSON(text)
        default:
            return nil
        }
        guard case .object(let members)? = value else { return nil }
        self.init(notation: notation, members: members)
    }

    /// The value of the member named `name`, if the object has one.
    public subscript(name: String) -> Value? {
        members.first { $0.name == name }?.value
    }

    /// Sets the member named `name` to `value`, where it is; a member the object does not have
    /// is added at its end.
    public mutating func set(_ value: Value, for name: String) {
        if let index = members.firstIndex(where: { $0.name == name }) {
            members[index].value = value
        } else {
            members.append(Member(name: name, value: value))
        }
    }

    /// Sets the member named `name` to an integer.
    public mutating func setInteger(_ value: Int, for name: String) {
        set(.number(String(value)), for: name)
    }

    /// The object written in its notation.
    public var text: String {
        switch notation {
        case .rison: Value.object(members).risonText
        case .json: Value.object(members).jsonText
        }
    }

    /// The deepest nesting read: deeper input is refused rather than read by deeper recursion.
    static let maximumDepth = 64
}
