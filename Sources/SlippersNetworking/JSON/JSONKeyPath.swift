/// A path of object keys into a JSON document, written as text: `data.items`, `meta.next_cursor`.
///
/// Keys are separated by dots. A key that itself holds a dot (or a
/// backslash) writes it escaped with a backslash, so OData's top-level
/// `@odata.nextLink` member is `@odata\.nextLink`. A path without a
/// backslash means what it always meant: its keys are the parts between the
/// dots, and empty parts are skipped. The empty path names the document
/// itself.
///
/// For example:
///
/// ```swift
/// JSONKeyPath("response_metadata.next_cursor").keys  // ["response_metadata", "next_cursor"]
/// JSONKeyPath(#"@odata\.nextLink"#).keys              // ["@odata.nextLink"]
/// JSONKeyPath(keys: ["@odata.nextLink"]).text         // #"@odata\.nextLink"#
/// ```
public struct JSONKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys, outermost first.
    public var keys: [String]

    /// Reads a path written as text; a backslash takes the character after it as part of the key.
    public init(_ text: String) {
        var keys: [String] = []
        var key = ""
        var isEscaping = false
        for character in text {
            if isEscaping {
                key.append(character)
                isEscaping = false
            } else if character == "\\" {
                isEscaping = true
            } else if character == "." {
                if !key.isEmpty { keys.append(key) }
                key = ""
            } else {
                key.append(character)
            }
        }
        // A lone backslash at the end stands for itself.
        if isEscaping { key.append("\\") }
        if !key.isEmpty { keys.append(key) }
        self.keys = keys
    }

    /// A path of keys as they are in the document.
    public init(keys: [String]) {
        self.keys = keys
    }

    /// The path as text, each key's dots and backslashes escaped: it reads back as the same keys.
    public var text: String {
        keys.map(Self.escaping).joined(separator: ".")
    }

    /// The path as text.
    public var description: String { text }

    /// A key written so that it reads back as one key of a path: `@odata.nextLink` → `@odata\.nextLink`.
    package static func escaping(_ key: String) -> String {
        guard key.contains(where: { $0 == "." || $0 == "\\" }) else { return key }
        var text = ""
        for character in key {
            if character == "." || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text
    }
}
