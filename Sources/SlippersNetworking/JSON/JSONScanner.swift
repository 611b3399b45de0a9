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
    /// The members of the root object, in document order (empty for another root): a lookup at the
    /// root, which detection makes by the hundred, compares keys without skipping the items again.
    private let rootMembers: [(key: Range<Int>, value: Value)]

    /// Checks that the bytes are one well-formed JSON document and prepares to read it.
    ///
    /// - throws: ``ScanError`` when the bytes are not JSON or are truncated.
    public init(_ data: Data) throws {
        let bytes = try Self.checkedText(data)
        // The root's members are noted as the validation meets them.
        var members: [(key: Range<Int>, value: Value)] = []
        let root = try bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            Self.skipWhitespace(buffer, &index)
            let root = try Self.validateValue(buffer, &index, depth: 0, rootMembers: &members)
            Self.skipWhitespace(buffer, &index)
            guard index == buffer.count else {
                throw ScanError(path: "", reason: "unexpected bytes after the JSON value", offset: index)
            }
            return root
        }
        self.bytes = bytes
        self.root = root
        rootMembers = members
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
        package var reason: String
        /// The byte offset of the problem, when it is about the syntax.
        var offset: Int?
        /// Whether the document ends before its JSON does: cut short, rather than malformed.
        package var isTruncated: Bool

        /// Creates an error.
        public init(path: String, reason: String, offset: Int? = nil, isTruncated: Bool = false) {
            self.path = path
            self.reason = reason
            self.offset = offset
            self.isTruncated = isTruncated
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
        let target = Array(key.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            if object == root {
                return rootMembers.first { Self.key(buffer, $0.key, equals: target) }?.value
            }
            var found: Value?
            Self.forEachMember(buffer, of: object) { keyRange, value in
                guard Self.key(buffer, keyRange, equals: target) else { return true }
                found = value
                return false
            }
            return found
        }
    }

    /// The keys of an object, in document order; empty for other values.
    public func keys(of object: Value) -> [String] {
        bytes.withUnsafeBufferPointer { buffer in
            var keys: [String] = []
            Self.forEachMember(buffer, of: object) { keyRange, _ in
                keys.append(Self.decodeString(buffer, keyRange) ?? "")
                return true
            }
            return keys
        }
    }

    /// The elements of an array; empty for other values.
    public func elements(of array: Value) -> [Value] {
        bytes.withUnsafeBufferPointer { buffer in
            var elements: [Value] = []
            Self.forEachElement(buffer, of: array) { elements.append($0) }
            return elements
        }
    }

    /// The text of a string value, escapes resolved; `nil` for other kinds.
    public func string(_ value: Value) -> String? {
        guard value.kind == .string else { return nil }
        return bytes.withUnsafeBufferPointer { Self.decodeString($0, value.range) }
    }

    /// The value of an integer number; `nil` for other kinds, fractions and exponents.
    public func int(_ value: Value) -> Int? {
        guard value.kind == .number else { return nil }
        return bytes.withUnsafeBufferPointer { Self.integer($0, value.range) }
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

    /// The text of a string or number at a key path, as a cursor sent back in a URL is: a string's
    /// text, a number's digits as written; `nil` when it is missing, `null` or of another kind.
    func scalarText(at path: [String]) -> String? {
        guard let value = value(at: path) else { return nil }
        if value.kind == .number { return String(decoding: bytes[value.range], as: UTF8.self) }
        return string(value)
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
        try rawItems(at: path, member: nil, idField: idField)
    }

    /// The elements of the array at a key path, or one member of each (a GraphQL edge's `node`),
    /// each with its id and its own bytes.
    ///
    /// - parameter member: The member of each element that is the item; `nil` for the element itself.
    /// - throws: ``ScanError`` as ``rawItems(at:idField:)``, and when an element has no such member.
    public func rawItems(at path: [String], member: String?, idField: String = "id") throws -> [RawItem] {
        let pathText = path.joined(separator: ".")
        guard let array = value(at: path) else {
            throw ScanError(path: pathText, reason: "no items array at this key path")
        }
        guard array.kind == .array else {
            throw ScanError(path: pathText, reason: "expected an array of items, found \(array.kind.rawValue)")
        }
        let idKey = Array(idField.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            var items: [RawItem] = []
            var failure: ScanError?
            let memberKey = member.map { Array($0.utf8) }
            Self.forEachElement(buffer, of: array) { element in
                guard failure == nil else { return }
                let index = items.count
                var itemPath: String { "\(pathText)[\(index)]" + (member.map { ".\($0)" } ?? "") }
                var element = element
                if let memberKey, let member {
                    var found: Value?
                    if element.kind == .object {
                        Self.forEachMember(buffer, of: element) { keyRange, value in
                            guard Self.key(buffer, keyRange, equals: memberKey) else { return true }
                            found = value
                            return false
                        }
                    }
                    guard let found else {
                        failure = ScanError(
                            path: "\(pathText)[\(index)]", reason: "item \(index) has no \"\(member)\"")
                        return
                    }
                    element = found
                }
                guard element.kind == .object else {
                    failure = ScanError(
                        path: itemPath, reason: "item \(index) is \(element.kind.rawValue), not an object")
                    return
                }
                var idValue: Value?
                Self.forEachMember(buffer, of: element) { keyRange, value in
                    guard Self.key(buffer, keyRange, equals: idKey) else { return true }
                    idValue = value
                    return false
                }
                guard let idValue else {
                    failure = ScanError(path: itemPath, reason: "item \(index) has no \"\(idField)\"")
                    return
                }
                let key: ItemKey
                if idValue.kind == .number, let number = Self.integer(buffer, idValue.range) {
                    key = .integer(number)
                } else if idValue.kind == .string, let text = Self.decodeString(buffer, idValue.range) {
                    key = .string(text)
                } else if idValue.kind == .number, Self.isWholeNumber(buffer, idValue.range) {
                    let digits = String(decoding: UnsafeBufferPointer(rebasing: buffer[idValue.range]), as: UTF8.self)
                    failure = ScanError(
                        path: "\(itemPath).\(idField)",
                        reason: "item \(index) has an \"\(idField)\" of \(digits.prefix(40)), a whole number "
                            + "outside the 64-bit range (-2^63 to 2^63-1) that ids are kept in")
                    return
                } else {
                    failure = ScanError(
                        path: "\(itemPath).\(idField)",
                        reason: "item \(index) has an \"\(idField)\" that is neither an integer nor a string")
                    return
                }
                items.append(RawItem(key: key, json: Data(UnsafeBufferPointer(rebasing: buffer[element.range]))))
            }
            if let failure { throw failure }
            return items
        }
    }

    // MARK: Reading a validated document

    private typealias Bytes = UnsafeBufferPointer<UInt8>

    /// Calls `body` with each member's key range (quotes included) and value, until it returns `false`.
    private static func forEachMember(_ bytes: Bytes, of object: Value, _ body: (Range<Int>, Value) -> Bool) {
        guard object.kind == .object else { return }
        var index = object.range.lowerBound + 1
        skipWhitespace(bytes, &index)
        guard bytes[index] != UInt8(ascii: "}") else { return }
        while true {
            let keyStart = index
            skipValidated(bytes, &index)
            let keyRange = keyStart..<index
            skipWhitespace(bytes, &index)
            index += 1  // the colon
            skipWhitespace(bytes, &index)
            let valueStart = index
            let kind = skipValidated(bytes, &index)
            guard body(keyRange, Value(kind: kind, range: valueStart..<index)) else { return }
            skipWhitespace(bytes, &index)
            guard bytes[index] == UInt8(ascii: ",") else { return }
            index += 1
            skipWhitespace(bytes, &index)
        }
    }

    /// Calls `body` with each element of an array.
    private static func forEachElement(_ bytes: Bytes, of array: Value, _ body: (Value) -> Void) {
        guard array.kind == .array else { return }
        var index = array.range.lowerBound + 1
        skipWhitespace(bytes, &index)
        guard bytes[index] != UInt8(ascii: "]") else { return }
        while true {
            let start = index
            let kind = skipValidated(bytes, &index)
            body(Value(kind: kind, range: start..<index))
            skipWhitespace(bytes, &index)
            guard bytes[index] == UInt8(ascii: ",") else { return }
            index += 1
            skipWhitespace(bytes, &index)
        }
    }

    /// Moves past a value of the validated document, without checking it again.
    @discardableResult
    private static func skipValidated(_ bytes: Bytes, _ index: inout Int) -> Kind {
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let kind: Kind = bytes[index] == UInt8(ascii: "{") ? .object : .array
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    skipValidatedString(bytes, &index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return kind
                    }
                default:
                    break
                }
                index += 1
            }
            return kind
        case UInt8(ascii: "\""):
            skipValidatedString(bytes, &index)
            return .string
        case UInt8(ascii: "t"):
            index += 4
            return .bool
        case UInt8(ascii: "f"):
            index += 5
            return .bool
        case UInt8(ascii: "n"):
            index += 4
            return .null
        default:
            while index < bytes.count, isNumberByte(bytes[index]) { index += 1 }
            return .number
        }
    }

    private static func skipValidatedString(_ bytes: Bytes, _ index: inout Int) {
        index += 1
        guard let base = bytes.baseAddress else { return }
        // memchr finds the next quote far faster than a byte loop; a quote
        // preceded by an odd number of backslashes is escaped, and skipped.
        while index < bytes.count {
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index) else {
                index = bytes.count
                return
            }
            let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            var before = position - 1
            while before >= index, bytes[before] == UInt8(ascii: "\\") {
                backslashes += 1
                before -= 1
            }
            index = position + 1
            if backslashes % 2 == 0 { return }
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// Whether a key (quotes included) is `target`, comparing bytes unless the key has escapes.
    private static func key(_ bytes: Bytes, _ range: Range<Int>, equals target: [UInt8]) -> Bool {
        let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        if inner.count == target.count, inner.elementsEqual(target) { return true }
        guard inner.contains(UInt8(ascii: "\\")) else { return false }
        return decodeString(bytes, range).map { Array($0.utf8) == target } ?? false
    }

    private static func integer(_ bytes: Bytes, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        let isNegative = bytes[index] == UInt8(ascii: "-")
        if isNegative { index += 1 }
        guard index < range.upperBound else { return nil }
        var value = 0
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte &- UInt8(ascii: "0"))
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) =
                isNegative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            index += 1
        }
        return value
    }

    // MARK: Validating

    private static let maxDepth = 512

    private static func skipWhitespace(_ bytes: Bytes, _ index: inout Int) {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private static func truncated(_ index: Int) -> ScanError {
        ScanError(path: "", reason: "the JSON ends too early (truncated?)", offset: index, isTruncated: true)
    }

    /// The document's bytes without a leading UTF-8 byte order mark, once they are known to be valid UTF-8.
    ///
    /// Judging the bytes here, once, means that what the cache keeps (each
    /// item's bytes as they came) is always valid JSON text when exported.
    private static func checkedText(_ data: Data) throws -> [UInt8] {
        // Copied through the buffer: `[UInt8](data)` copies a `Data` a byte at a time.
        var bytes = data.withUnsafeBytes { [UInt8]($0) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard String(validating: bytes, as: UTF8.self) == nil else { return bytes }
        let offset = firstInvalidUTF8(bytes)
        // A body cut inside a character ends in the first bytes of one: a cut body, not bad data.
        if let offset, endsInPartOfACharacter(bytes, from: offset) { throw truncated(offset) }
        throw ScanError(
            path: "", reason: "the body is not valid UTF-8" + (offset.map { " at byte \($0)" } ?? ""))
    }

    /// Whether the bytes from `offset` to the end are the first bytes of a UTF-8 sequence, short of its length.
    private static func endsInPartOfACharacter(_ bytes: [UInt8], from offset: Int) -> Bool {
        let lead = bytes[offset]
        let length =
            switch lead {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
        let rest = bytes[(offset + 1)...]
        return rest.count + 1 < length && rest.allSatisfy { $0 & 0xC0 == 0x80 }
    }

    /// The offset of the first byte that does not start a valid UTF-8 sequence.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private static func unexpected(_ bytes: Bytes, _ index: Int, expecting: String) -> ScanError {
        guard index < bytes.count else { return truncated(index) }
        let character = Unicode.Scalar(bytes[index])
        return ScanError(path: "", reason: "expected \(expecting), found \"\(character)\"", offset: index)
    }

    /// After a member or an element: moves past a `,` and the whitespace after it (`false`: another
    /// follows), or past `closing` (`true`: the container ends).
    ///
    /// - throws: ``ScanError`` for anything else, or for the end of the bytes.
    private static func isClosed(_ bytes: Bytes, _ index: inout Int, by closing: UInt8) throws -> Bool {
        skipWhitespace(bytes, &index)
        guard index < bytes.count else { throw truncated(index) }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace(bytes, &index)
            return false
        case closing:
            index += 1
            return true
        default:
            throw unexpected(bytes, index, expecting: "\",\" or \"\(Unicode.Scalar(closing))\"")
        }
    }

    /// Scans the value starting at `index` (no leading whitespace) and moves past it; the members
    /// of an object at depth 0 (the root) are added to `rootMembers`, in document order.
    private static func validateValue(
        _ bytes: Bytes, _ index: inout Int, depth: Int, rootMembers: inout [(key: Range<Int>, value: Value)]
    ) throws -> Value {
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
                let keyStart = index
                try skipString(bytes, &index)
                let key = keyStart..<index
                skipWhitespace(bytes, &index)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw unexpected(bytes, index, expecting: "\":\"")
                }
                index += 1
                skipWhitespace(bytes, &index)
                let value = try validateValue(bytes, &index, depth: depth + 1, rootMembers: &rootMembers)
                if depth == 0 { rootMembers.append((key, value)) }
                if try isClosed(bytes, &index, by: UInt8(ascii: "}")) {
                    return Value(kind: .object, range: start..<index)
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
                _ = try validateValue(bytes, &index, depth: depth + 1, rootMembers: &rootMembers)
                if try isClosed(bytes, &index, by: UInt8(ascii: "]")) {
                    return Value(kind: .array, range: start..<index)
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

    private static func skipString(_ bytes: Bytes, _ index: inout Int) throws {
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

    private static func skipLiteral(_ bytes: Bytes, _ index: inout Int, _ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw truncated(bytes.count) }
        let matches = literal.withUTF8Buffer { expected in
            bytes[index..<index + count].elementsEqual(expected)
        }
        guard matches else { throw unexpected(bytes, index, expecting: "\(literal)") }
        index += count
    }

    private static func skipNumber(_ bytes: Bytes, _ index: inout Int) throws {
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

    /// Whether a number's bytes are an optional minus sign and digits only: a whole number, whatever its size.
    private static func isWholeNumber(_ bytes: Bytes, _ range: Range<Int>) -> Bool {
        let digits = bytes[range].drop { $0 == UInt8(ascii: "-") }
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func decodeString(_ bytes: Bytes, _ range: Range<Int>) -> String? {
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        guard inner.lowerBound <= inner.upperBound else { return nil }
        return JSONStringContent.text(UnsafeBufferPointer(rebasing: bytes[inner]))
    }
}
