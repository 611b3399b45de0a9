import Foundation

/// Stable JSON for scripts: sorted keys, snake_case, ISO 8601 dates.
///
/// The library's models encode every key, `null` included, so a script sees
/// the same keys whatever the values; this encoder turns their names to
/// snake_case. Items are written as the bytes the cache holds, never
/// re-encoded: ``object(_:)`` assembles an object around them.
enum JSONOutput {
    /// `value` as indented JSON.
    static func render<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try encoder(pretty: true).encode(value), as: UTF8.self)
    }

    /// `value` as compact JSON bytes, for one member of an assembled object.
    static func fragment<Value: Encodable>(_ value: Value) throws -> Data {
        try encoder(pretty: false).encode(value)
    }

    /// A compact object of members whose values are already JSON bytes, keys sorted.
    ///
    /// For example, `object(["id": fragment(42), "item": item.json])` wraps an
    /// item's stored bytes without decoding them.
    static func object(_ members: [String: Data]) -> Data {
        var object = Data("{".utf8)
        for (position, key) in members.keys.sorted().enumerated() {
            // Keys are our own snake_case names: nothing to escape.
            object.append(Data(((position == 0 ? "" : ",") + "\"\(key)\":").utf8))
            object.append(members[key] ?? Data("null".utf8))
        }
        object.append(Data("}".utf8))
        return object
    }

    private static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
