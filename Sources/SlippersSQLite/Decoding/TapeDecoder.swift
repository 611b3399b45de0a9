import Foundation
import Slippers

/// A `Decoder` over a ``JSONTape`` that decodes exactly as `ItemDecoder.shared` (a `JSONDecoder`) does, or refuses.
///
/// It follows `JsonProvider`'s configuration: object keys converted from
/// snake_case (but not the keys of a `[String: Value]` dictionary, which
/// `JSONDecoder` leaves as they are), dates through `JsonProvider.parseDate`,
/// URLs from strings. Whatever it is not certain to decode as `JSONDecoder`
/// would (a `Float`, `Data`, a `Decimal`, a number out of range, a type
/// mismatch, a missing key, a super decoder), it refuses: it throws
/// ``Refusal`` and remembers it in ``refused``, even when the model's own
/// `init(from:)` catches the error. Its caller then decodes the item again
/// with `JSONDecoder`, which gives the value or the error. So a success here
/// is `JSONDecoder`'s success, and every error is `JSONDecoder`'s own.
final class TapeDecoder: Decoder {
    /// Thrown where `JSONDecoder` might decide otherwise; never reaches a caller of the cache.
    struct Refusal: Error {}

    private let bytes: [UInt8]
    private let entries: [JSONTape.Entry]
    /// The entry the decoder stands on.
    private var current = 0
    /// The coding path of the current entry.
    private var path = CodingPath()
    /// Whether anything was refused during the decode, caught or not.
    private(set) var refused = false

    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes `bytes` as `T`, or returns `nil` when the tape parser or the decoder refuses.
    ///
    /// - throws: Nothing of its own; the model's errors turn into a refusal too, so
    ///   that `JSONDecoder` throws them with its own coding path.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        let bytes = [UInt8](data)
        guard let tape = bytes.withUnsafeBytes(JSONTape.parse) else { return nil }
        let decoder = TapeDecoder(bytes: bytes, entries: tape.entries)
        guard let value = try? decoder.unwrap(T.self, at: 0, path: CodingPath()), !decoder.refused else { return nil }
        return value
    }

    private init(bytes: [UInt8], entries: [JSONTape.Entry]) {
        self.bytes = bytes
        self.entries = entries
    }

    func refuse() -> Refusal {
        refused = true
        return Refusal()
    }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(keyedBy: type, at: current, path: path)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(at: current, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self, index: current, path: path)
    }

    func keyedContainer<Key: CodingKey>(keyedBy type: Key.Type, at index: Int, path: CodingPath) throws
        -> KeyedDecodingContainer<Key>
    {
        KeyedDecodingContainer(
            KeyedContainer<Key>(decoder: self, members: try members(of: index, convertingKeys: true), path: path))
    }

    func unkeyedContainer(at index: Int, path: CodingPath) throws -> any UnkeyedDecodingContainer {
        let entry = entries[index]
        guard entry.kind == .array else { throw refuse() }
        return UnkeyedContainer(decoder: self, next: index + 1, count: Int(entry.count), path: path)
    }

    /// The members of the object at `index`: each key, converted from snake_case or not, and its value's entry.
    func members(of index: Int, convertingKeys: Bool) throws -> [(key: String, value: Int)] {
        let entry = entries[index]
        guard entry.kind == .object else { throw refuse() }
        var members: [(key: String, value: Int)] = []
        members.reserveCapacity(Int(entry.count))
        // Two members under one key: which one JSONDecoder keeps is its business.
        // Small objects are checked pairwise, large ones (dictionaries) through a set.
        var seen: Set<String> = []
        let usesSet = entry.count > 16
        var position = index + 1
        for _ in 0..<entry.count {
            let raw = try string(at: position)
            let key =
                convertingKeys && hasUnderscore(at: position, raw: raw) ? SnakeCaseKeys.shared.converted(raw) : raw
            let isDuplicate = usesSet ? !seen.insert(key).inserted : members.contains(where: { $0.key == key })
            guard !isDuplicate else { throw refuse() }
            members.append((key, position + 1))
            position = skip(position + 1)
        }
        return members
    }

    /// Whether the key at `index`, read as `raw`, has a `_`.
    ///
    /// The snake_case strategy leaves a key without one as it is.
    private func hasUnderscore(at index: Int, raw: String) -> Bool {
        let entry = entries[index]
        // An escaped key may spell its `_` as `\u005f`: look at the text, not the bytes.
        if entry.flag { return raw.utf8.contains(UInt8(ascii: "_")) }
        return bytes[Int(entry.start)..<Int(entry.end)].contains(UInt8(ascii: "_"))
    }

    /// The index of the entry after the value at `index`.
    func skip(_ index: Int) -> Int {
        JSONTape.index(after: index, in: entries)
    }

    func isNull(at index: Int) -> Bool {
        entries[index].kind == .null
    }

    // MARK: - Values

    /// Decodes the value at `index` as `T`, as `JSONDecoder`'s `unwrap` does: special types first.
    ///
    /// `path` is the coding path of the container the value is in and `key` the value's key
    /// there, if any: the path is only extended (which allocates) when `T` decodes itself.
    func unwrap<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPath, appending key: (any CodingKey)? = nil
    ) throws -> T {
        // Each `unsafeBitCast` below follows a check that `T` is the value's own type.
        if T.self == String.self { return unsafeBitCast(try string(checkedAt: index), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self, at: index), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(at: index), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try double(at: index), to: T.self) }
        if T.self == Date.self {
            guard let date = JsonProvider.parseDate(try string(checkedAt: index)) else { throw refuse() }
            return unsafeBitCast(date, to: T.self)
        }
        if T.self == URL.self {
            guard let url = URL(string: try string(checkedAt: index)) else { throw refuse() }
            return unsafeBitCast(url, to: T.self)
        }
        // Decoded by JSONDecoder in ways of its own: base64, or its decimal parser.
        if T.self == Data.self || T.self == Decimal.self || T.self == Float.self { throw refuse() }
        // An id is the bare number or string: built here, it needs no attempt that would refuse.
        let kind = entries[index].kind
        if kind == .string || kind == .number, let keyType = T.self as? any ItemKeyDecodable.Type {
            let key: ItemKey =
                kind == .string ? .string(try string(at: index)) : .integer(try integer(Int.self, at: index))
            guard let value = keyType.init(itemKey: key) as? T else { throw refuse() }
            return value
        }
        let path = key.map(path.appending) ?? path
        // Only an object can be a dictionary: the conformance lookup is skipped for other values.
        if entries[index].kind == .object, let dictionary = T.self as? any StringKeyedDictionary.Type {
            guard let value = try dictionary.init(from: self, at: index, path: path) as? T else { throw refuse() }
            return value
        }
        let saved = (current, self.path)
        defer { (current, self.path) = saved }
        current = index
        self.path = path
        return try T(from: self)
    }

    func bool(at index: Int) throws -> Bool {
        switch entries[index].kind {
        case .true: return true
        case .false: return false
        default: throw refuse()
        }
    }

    func string(checkedAt index: Int) throws -> String {
        guard entries[index].kind == .string else { throw refuse() }
        return try string(at: index)
    }

    /// The string at `index`, which the tape has checked: valid UTF-8, well-formed escapes.
    private func string(at index: Int) throws -> String {
        let entry = entries[index]
        let text = bytes.withUnsafeBufferPointer { JSONTape.text(of: entry, in: $0) }
        // The tape refused bad escapes already; a refusal here would only be defensive.
        guard let text else { throw refuse() }
        return text
    }

    func double(at index: Int) throws -> Double {
        let entry = entries[index]
        guard entry.kind == .number else { throw refuse() }
        let text = bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
        }
        // JSONDecoder refuses a number that does not fit; so does this, and lets it say so.
        guard let value = Double(text), value.isFinite else { throw refuse() }
        return value
    }

    /// An integer written as one (no fraction, no exponent) that fits `T`.
    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int) throws -> T {
        let entry = entries[index]
        guard entry.kind == .number, !entry.flag else { throw refuse() }
        var offset = Int(entry.start)
        let end = Int(entry.end)
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative {
            guard T.isSigned else { throw refuse() }
            offset += 1
        }
        var value: T = 0
        while offset < end {
            let digit = T(bytes[offset] - UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { throw refuse() }
            value = next
            offset += 1
        }
        return value
    }
}

/// A coding path: its last key, and the keys before it as linked nodes, built only when a path grows deeper.
struct CodingPath {
    var parent: CodingPathNode?
    var last: (any CodingKey)?

    var keys: [any CodingKey] {
        (parent?.path ?? []) + (last.map { [$0] } ?? [])
    }

    /// The path one key deeper.
    func appending(_ key: any CodingKey) -> CodingPath {
        CodingPath(parent: last.map { CodingPathNode(parent: parent, key: $0) } ?? parent, last: key)
    }
}

/// A coding path, linked from the innermost key outwards.
final class CodingPathNode {
    let parent: CodingPathNode?
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: CodingPathNode? = self
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// The key `JSONDecoder` puts in a coding path for an array element: "Index 3".
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) {
        intValue = index
    }

    init?(stringValue: String) {
        nil
    }

    init?(intValue: Int) {
        self.intValue = intValue
    }
}

/// `[String: Value]`, whose keys `JSONDecoder` does not convert from snake_case.
protocol StringKeyedDictionary {
    init(from decoder: TapeDecoder, at index: Int, path: CodingPath) throws
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    init(from decoder: TapeDecoder, at index: Int, path: CodingPath) throws {
        self.init()
        for member in try decoder.members(of: index, convertingKeys: false) {
            let key = SnakeCaseKeys.ConvertedKey(stringValue: member.key)
            self[member.key] = try decoder.unwrap(Value.self, at: member.value, path: path, appending: key)
        }
    }
}
