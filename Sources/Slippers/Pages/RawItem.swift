import Foundation

/// An item as JSON bytes, with the key the cache files it under.
///
/// The cache keeps items as JSON. An HTTP source hands over each item's bytes
/// exactly as the server sent them, which is cheaper than decoding and
/// re-encoding them; a source of typed values encodes them with
/// ``JsonProvider`` (see ``PageSource/encodingItems()``).
public struct RawItem: Hashable, Sendable {
    /// The item's id.
    public var key: ItemKey
    /// The item's JSON object, UTF-8 encoded.
    public var json: Data

    /// Creates a raw item from its key and its JSON bytes.
    public init(key: ItemKey, json: Data) {
        self.key = key
        self.json = json
    }

    /// Encodes a typed value with ``JsonProvider``.
    ///
    /// - throws: `EncodingError` when the value cannot be encoded.
    public init<Value: Encodable & CacheIdentifiable>(encoding value: Value) throws {
        self.key = value.itemKey
        self.json = try JsonProvider.encode(value)
    }

    /// Decodes the JSON bytes into a typed value with ``JsonProvider``.
    ///
    /// - throws: `DecodingError` when the bytes do not match the type.
    public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try JsonProvider.decode(type, from: json)
    }
}

extension PageSource where Item: Encodable & CacheIdentifiable {
    /// A source that delivers this source's items encoded as ``RawItem``s, ready to store.
    public func encodingItems() -> MappedPageSource<Self, RawItem> {
        mapItems { try RawItem(encoding: $0) }
    }
}
