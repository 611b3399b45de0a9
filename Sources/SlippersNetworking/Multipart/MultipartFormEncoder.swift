import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Encodes an `Encodable` value as multipart/form-data parts.
///
/// Each property becomes a text field named after its key; a
/// ``MultipartFile`` (or `Data`) property becomes a file part; nested values
/// are named `parent[child]`, array elements `name[]`, as form decoders
/// (multipart-kit's among them) expect. `nil` optionals are left out; dates
/// are ISO 8601 with fractional seconds.
///
/// For example:
///
/// ```swift
/// struct Profile: Encodable { var name: String; var tags: [String]; var avatar: MultipartFile }
/// let form = try MultipartFormEncoder().encode(profile)
/// let endpoint = try Endpoint(.post, "profile").withMultipartBody(form)
/// ```
public struct MultipartFormEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes a value whose top level is keyed (a struct or a dictionary).
    ///
    /// - parameter value: The form: its properties become the fields.
    /// - parameter boundary: The boundary to use; random unless given.
    /// - throws: `EncodingError.invalidValue` for a top-level value that is not keyed.
    public func encode<Value: Encodable>(_ value: Value, boundary: String? = nil) throws -> MultipartFormData {
        let storage = FormStorage()
        try value.encode(to: FormEncoder(storage: storage, name: nil, codingPath: []))
        if let boundary { return MultipartFormData(parts: storage.parts, boundary: boundary) }
        return MultipartFormData(parts: storage.parts)
    }
}

/// The parts collected during one encoding; lives on one thread for one call.
private final class FormStorage {
    var parts: [MultipartFormData.Part] = []
    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    func encode<T: Encodable>(_ value: T, name: String, codingPath: [any CodingKey]) throws {
        switch value {
        case let file as MultipartFile:
            parts.append(.file(name: name, file: file))
        case let data as Data:
            parts.append(.file(name: name, file: MultipartFile(filename: name, data: data)))
        case let date as Date:
            parts.append(.text(name: name, value: date.formatted(Self.dateStyle)))
        case let url as URL:
            parts.append(.text(name: name, value: url.absoluteString))
        case let decimal as Decimal:
            parts.append(.text(name: name, value: decimal.description))
        default:
            try value.encode(to: FormEncoder(storage: self, name: name, codingPath: codingPath))
        }
    }

    func text(_ value: String, name: String?, codingPath: [any CodingKey]) throws {
        guard let name else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "A form needs named fields: encode a struct"))
        }
        parts.append(.text(name: name, value: value))
    }
}

private struct FormEncoder: Encoder {
    let storage: FormStorage
    let name: String?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FormKeyedContainer<Key>(storage: storage, name: name, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(storage: storage, name: name, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(storage: storage, name: name, codingPath: codingPath)
    }
}

private struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: FormStorage
    let name: String?
    let codingPath: [any CodingKey]

    private func childName(_ key: Key) -> String {
        name.map { "\($0)[\(key.stringValue)]" } ?? key.stringValue
    }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try text(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try text(String(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try text(String(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try storage.encode(value, name: childName(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(
            FormKeyedContainer<NestedKey>(storage: storage, name: childName(key), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(storage: storage, name: childName(key), codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        FormEncoder(storage: storage, name: name, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormEncoder(storage: storage, name: childName(key), codingPath: codingPath + [key])
    }

    private func text(_ value: String, _ key: Key) throws {
        try storage.text(value, name: childName(key), codingPath: codingPath + [key])
    }
}

private struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let storage: FormStorage
    let name: String?
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(storage: FormStorage, name: String?, codingPath: [any CodingKey]) {
        self.storage = storage
        self.name = name
        self.codingPath = codingPath
    }

    private var elementName: String { name.map { "\($0)[]" } ?? "[]" }

    mutating func encodeNil() throws { count += 1 }
    mutating func encode(_ value: Bool) throws { try text(String(value)) }
    mutating func encode(_ value: String) throws { try text(value) }
    mutating func encode(_ value: Double) throws { try text(String(value)) }
    mutating func encode(_ value: Float) throws { try text(String(value)) }
    mutating func encode(_ value: Int) throws { try text(String(value)) }
    mutating func encode(_ value: Int8) throws { try text(String(value)) }
    mutating func encode(_ value: Int16) throws { try text(String(value)) }
    mutating func encode(_ value: Int32) throws { try text(String(value)) }
    mutating func encode(_ value: Int64) throws { try text(String(value)) }
    mutating func encode(_ value: UInt) throws { try text(String(value)) }
    mutating func encode(_ value: UInt8) throws { try text(String(value)) }
    mutating func encode(_ value: UInt16) throws { try text(String(value)) }
    mutating func encode(_ value: UInt32) throws { try text(String(value)) }
    mutating func encode(_ value: UInt64) throws { try text(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try storage.encode(value, name: elementName, codingPath: codingPath)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        count += 1
        return KeyedEncodingContainer(
            FormKeyedContainer<NestedKey>(storage: storage, name: elementName, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return FormUnkeyedContainer(storage: storage, name: elementName, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        FormEncoder(storage: storage, name: name, codingPath: codingPath)
    }

    private mutating func text(_ value: String) throws {
        try storage.text(value, name: elementName, codingPath: codingPath)
        count += 1
    }
}

private struct FormSingleValueContainer: SingleValueEncodingContainer {
    let storage: FormStorage
    let name: String?
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws { try text(String(value)) }
    mutating func encode(_ value: String) throws { try text(value) }
    mutating func encode(_ value: Double) throws { try text(String(value)) }
    mutating func encode(_ value: Float) throws { try text(String(value)) }
    mutating func encode(_ value: Int) throws { try text(String(value)) }
    mutating func encode(_ value: Int8) throws { try text(String(value)) }
    mutating func encode(_ value: Int16) throws { try text(String(value)) }
    mutating func encode(_ value: Int32) throws { try text(String(value)) }
    mutating func encode(_ value: Int64) throws { try text(String(value)) }
    mutating func encode(_ value: UInt) throws { try text(String(value)) }
    mutating func encode(_ value: UInt8) throws { try text(String(value)) }
    mutating func encode(_ value: UInt16) throws { try text(String(value)) }
    mutating func encode(_ value: UInt32) throws { try text(String(value)) }
    mutating func encode(_ value: UInt64) throws { try text(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard let name else {
            try value.encode(to: FormEncoder(storage: storage, name: nil, codingPath: codingPath))
            return
        }
        try storage.encode(value, name: name, codingPath: codingPath)
    }

    private func text(_ value: String) throws {
        try storage.text(value, name: name, codingPath: codingPath)
    }
}
