import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small, fast reader of JSON bytes that finds values by key path without decoding them.
///
/// The HTTP page source uses it to cut each item's bytes out of a response,
/// exactly as the server sent them, and to read the few fields pagination
/// needs (a next cursor, a total). Any malformed or truncated input throws
/// ``ScanError``; nothing crashes.
///
/// For example:
///
/// ```swift
/// let scanner = try JSONScanner(Data(#"{"data": {"items": [{"id": 1}]}, "next": null}"#.utf8))
/// let items = try scanner.rawItems(at: ["data", "items"])   // one RawItem, key .integer(1)
/// ```
public struct JSONScanner: Sendable {
    /// The document's bytes.
    public let bytes: [UInt8]
    /// The document's root value.
    public let root: Value

    /// Checks that the bytes are one well-formed JSON document and prepares to read it.
    ///
    /// - throws: ``ScanError`` when the bytes are not JSON or are truncated.
    public init(_ data: Data) throws {
        bytes = [UInt8](data)
        var index = 0
        Self.skipWhitespace(bytes, &index)
        root = try Self.scanValue(bytes, &index, depth: 0)
        Self.skipWhitespace(bytes, &index)
        guard index == bytes.count else {
            throw ScanError(path: "", reason: "unexpected bytes after the JSON value", offset: index)
        }
    }

    /// The kind of a JSON value.
    public enum Kind: String, Sendable {
        /// `{…}`
        case object
        /// `[…]`
        case array
        /// `"…"`
        case string
        /// A number.
        case number
        /// `true` or `false`.
        case bool
        /// `null`.
        case null
    }

    /// A value located in the document: its kind and the range of its bytes.
    public struct Value: Sendable, Equatable {
        /// The kind of the value.
        public var kind: Kind
        /// The value's bytes in ``JSONScanner/bytes``, quotes and brackets included.
        public var range: Range<Int>
    }

    /// Why a document could not be read: where, why, and at which byte.
    public struct ScanError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The key path where reading failed, such as `results[3].id`; empty at the root.
        public var path: String
        /// What was wrong.
        public var reason: String
        /// The byte offset of the problem, when it is about the syntax.
        public var offset: Int?

        /// Creates an error.
        public init(path: String, reason: String, offset: Int? = nil) {
            self.path = path
            self.reason = reason
            self.offset = offset
        }

        /// One line: path, reason and offset.
        public var description: String {
            let at = offset.map { " at byte \($0)" } ?? ""
            return path.isEmpty ? "\(reason)\(at)" : "\(path): \(reason)\(at)"
        }
    }

    // MARK: Navigation

    /// The value at a key path of nested objects, or `nil` when a key is missing or a step is not an object.
    public func value(at path: [String]) -> Value? {
        var current = root
        for key in path {
            guard current.kind == .object, let member = member(key, of: current) else { return nil }
            current = member
        }
        return current
    }

    /// The value of one member of an object, or `nil` when the object has no such key.
    public func member(_ key: String, of object: Value) -> Value? {
        var found: Value?
        forEachMember(of: object) { name, value in
            if name == key {
                found = value
                return false
            }
            return true
        }
        return found
    }

    /// The keys of an object, in document order; empty for other values.
    public func keys(of object: Value) -> [String] {
        var keys: [String] = []
        forEachMember(of: object) { name, _ in
            keys.append(name)
            return true
        }
        return keys
    }

    /// The elements of an array; empty for other values.
    public func elements(of array: Value) -> [Value] {
        guard array.kind == .array else { return [] }
        var elements: [Value] = []
        var index = array.range.lowerBound + 1
        Self.skipWhitespace(bytes, &index)
        if bytes[index] == UInt8(ascii: "]") { return [] }
        while true {
            // The document was validated at init: these scans cannot fail.
            guard let element = try? Self.scanValue(bytes, &index, depth: 0) else { return elements }
            elements.append(element)
            Self.skipWhitespace(bytes, &index)
            guard bytes[index] == UInt8(ascii: ",") else { return elements }
            index += 1
            Self.skipWhitespace(bytes, &index)
        }
    }

    /// The text of a string value, escapes resolved; `nil` for other kinds.
    public func string(_ value: Value) -> String? {
        guard value.kind == .string else { return nil }
        return Self.decodeString(bytes, value.range)
    }

    /// The value of an integer number; `nil` for other kinds, fractions and exponents.
    public func int(_ value: Value) -> Int? {
        guard value.kind == .number else { return nil }
        return Int(String(decoding: bytes[value.range], as: UTF8.self))
    }

    /// The value of a `true` or `false`; `nil` for other kinds.
    public func bool(_ value: Value) -> Bool? {
        guard value.kind == .bool else { return nil }
        return bytes[value.range.lowerBound] == UInt8(ascii: "t")
    }

    /// The string at a key path, or `nil` when it is missing, `null` or not a string.
    public func string(at path: [String]) -> String? { value(at: path).flatMap(string) }

    /// The integer at a key path, or `nil` when it is missing or not an integer (an integer in a string counts).
    public func int(at path: [String]) -> Int? {
        guard let value = value(at: path) else { return nil }
        return int(value) ?? string(value).flatMap { Int($0) }
    }

    /// The boolean at a key path, or `nil` when it is missing or not a boolean.
    public func bool(at path: [String]) -> Bool? { value(at: path).flatMap(bool) }

    /// The bytes of a value, as they are in the document.
    public func data(of value: Value) -> Data { Data(bytes[value.range]) }

    // MARK: Items

    /// The elements of the array at a key path (the root for an empty path), each with its id and its own bytes.
    ///
    /// - parameter path: The keys leading to the array; empty when the document is the array.
    /// - parameter idField: The member that holds each item's id: an integer
    ///   gives `ItemKey.integer`, a string `ItemKey.string`.
    /// - throws: ``ScanError`` when there is no array at the path, an element is
    ///   not an object, or its id is missing or neither an integer nor a string.
    public func rawItems(at path: [String], idField: String = "id") throws -> [RawItem] {
        let pathText = path.joined(separator: ".")
        guard let array = value(at: path) else {
            throw ScanError(path: pathText, reason: "no items array at this key path")
        }
        guard array.kind == .array else {
            throw ScanError(path: pathText, reason: "expected an array of items, found \(array.kind.rawValue)")
        }
        let elements = elements(of: array)
        var items: [RawItem] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let itemPath = "\(pathText)[\(index)]"
            guard element.kind == .object else {
                throw ScanError(path: itemPath, reason: "item \(index) is \(element.kind.rawValue), not an object")
            }
            guard let idValue = member(idField, of: element) else {
                throw ScanError(path: itemPath, reason: "item \(index) has no \"\(idField)\"")
            }
            let key: ItemKey
            if let number = int(idValue) {
                key = .integer(number)
            } else if let text = string(idValue) {
                key = .string(text)
            } else {
                throw ScanError(
                    path: "\(itemPath).\(idField)",
                    reason: "item \(index) has an \"\(idField)\" that is neither an integer nor a string")
            }
            items.append(RawItem(key: key, json: data(of: element)))
        }
        return items
    }

    // MARK: Scanning

    private static let maxDepth = 512

    private func forEachMember(of object: Value, _ body: (String, Value) -> Bool) {
        guard object.kind == .object else { return }
        var index = object.range.lowerBound + 1
        Self.skipWhitespace(bytes, &index)
        if bytes[index] == UInt8(ascii: "}") { return }
        while true {
            let keyStart = index
            guard (try? Self.skipString(bytes, &index)) != nil else { return }
            let name = Self.decodeString(bytes, keyStart..<index) ?? ""
            Self.skipWhitespace(bytes, &index)
            index += 1  // the colon, checked at init
            Self.skipWhitespace(bytes, &index)
            guard let value = try? Self.scanValue(bytes, &index, depth: 0) else { return }
            guard body(name, value) else { return }
            Self.skipWhitespace(bytes, &index)
            guard bytes[index] == UInt8(ascii: ",") else { return }
            index += 1
            Self.skipWhitespace(bytes, &index)
        }
    }

    private static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private static func truncated(_ index: Int) -> ScanError {
        ScanError(path: "", reason: "the JSON ends too early (truncated?)", offset: index)
    }

    private static func unexpected(_ bytes: [UInt8], _ index: Int, expecting: String) -> ScanError {
        guard index < bytes.count else { return truncated(index) }
        let character = Unicode.Scalar(bytes[index])
        return ScanError(path: "", reason: "expected \(expecting), found \"\(character)\"", offset: index)
    }

    /// Scans the value starting at `index` (no leading whitespace) and moves past it.
    private static func scanValue(_ bytes: [UInt8], _ index: inout Int, depth: Int) throws -> Value {
        guard index < bytes.count else { throw truncated(index) }
        guard depth < maxDepth else {
            throw ScanError(path: "", reason: "the JSON nests deeper than \(maxDepth) levels", offset: index)
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            skipWhitespace(bytes, &index)
            guard index < bytes.count else { throw truncated(index) }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return Value(kind: .object, range: start..<index)
            }
            while true {
                guard index < bytes.count else { throw truncated(index) }
                guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected(bytes, index, expecting: "a key") }
                try skipString(bytes, &index)
                skipWhitespace(bytes, &index)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw unexpected(bytes, index, expecting: "\":\"")
                }
                index += 1
                skipWhitespace(bytes, &index)
                _ = try scanValue(bytes, &index, depth: depth + 1)
                skipWhitespace(bytes, &index)
                guard index < bytes.count else { throw truncated(index) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace(bytes, &index)
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return Value(kind: .object, range: start..<index)
                } else {
                    throw unexpected(bytes, index, expecting: "\",\" or \"}\"")
                }
            }
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace(bytes, &index)
            guard index < bytes.count else { throw truncated(index) }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return Value(kind: .array, range: start..<index)
            }
            while true {
                _ = try scanValue(bytes, &index, depth: depth + 1)
                skipWhitespace(bytes, &index)
                guard index < bytes.count else { throw truncated(index) }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace(bytes, &index)
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return Value(kind: .array, range: start..<index)
                } else {
                    throw unexpected(bytes, index, expecting: "\",\" or \"]\"")
                }
            }
        case UInt8(ascii: "\""):
            try skipString(bytes, &index)
            return Value(kind: .string, range: start..<index)
        case UInt8(ascii: "t"):
            try skipLiteral(bytes, &index, "true")
            return Value(kind: .bool, range: start..<index)
        case UInt8(ascii: "f"):
            try skipLiteral(bytes, &index, "false")
            return Value(kind: .bool, range: start..<index)
        case UInt8(ascii: "n"):
            try skipLiteral(bytes, &index, "null")
            return Value(kind: .null, range: start..<index)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber(bytes, &index)
            return Value(kind: .number, range: start..<index)
        default:
            throw unexpected(bytes, index, expecting: "a value")
        }
    }

    private static func skipString(_ bytes: [UInt8], _ index: inout Int) throws {
        guard index < bytes.count else { throw truncated(index) }
        guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected(bytes, index, expecting: "a string") }
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 2
            case 0x00..<0x20:
                throw ScanError(path: "", reason: "control character in a string", offset: index)
            default:
                index += 1
            }
        }
        throw truncated(index)
    }

    private static func skipLiteral(_ bytes: [UInt8], _ index: inout Int, _ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw truncated(bytes.count) }
        let matches = literal.withUTF8Buffer { expected in
            bytes[index..<index + count].elementsEqual(expected)
        }
        guard matches else { throw unexpected(bytes, index, expecting: "\(literal)") }
        index += count
    }

    private static func skipNumber(_ bytes: [UInt8], _ index: inout Int) throws {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                UInt8(ascii: "+"), UInt8(ascii: "-"):
                digits += 1
                index += 1
            default:
                guard digits > 0 else { throw unexpected(bytes, index, expecting: "a digit") }
                return
            }
        }
        // A number that ends the document is whole only when it is the root value.
        guard digits > 0 else { throw truncated(start) }
    }

    private static func decodeString(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        guard inner.lowerBound <= inner.upperBound else { return nil }
        guard bytes[inner].contains(UInt8(ascii: "\\")) else {
            return String(decoding: bytes[inner], as: UTF8.self)
        }
        var result: [UInt8] = []
        result.reserveCapacity(inner.count)
        var index = inner.lowerBound
        while index < inner.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < inner.upperBound else {
                result.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(bytes, index, end: inner.upperBound) else { return nil }
                index += 4
                if (0xD800..<0xDC00).contains(scalar), index + 6 <= inner.upperBound,
                    bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                    let low = hex4(bytes, index + 2, end: inner.upperBound), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                result.append(contentsOf: Array(String(Character(unicode)).utf8))
            default: result.append(escape)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func hex4(_ bytes: [UInt8], _ index: Int, end: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        return UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    }
}
