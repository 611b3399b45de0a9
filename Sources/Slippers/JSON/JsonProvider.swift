import Foundation

/// The one JSON configuration of Slippers: snake_case keys and ISO 8601 dates.
///
/// Items are encoded with it before they are stored and decoded with it when
/// they are read back, so a model only declares camelCase properties:
///
/// ```swift
/// struct Post: Codable { let id: ID<Post>; let createdAt: Date }
/// let post: Post = try JsonProvider.decode(#"{"id": 1, "created_at": "2024-05-01T12:00:00.123Z"}"#)
/// ```
///
/// Dates are decoded from ISO 8601 text with or without fractional seconds,
/// with `Z` or a numeric offset, and encoded with millisecond precision in UTC.
/// Keys are encoded sorted, so that encoding the same value twice gives the
/// same bytes.
///
/// The `force` variants crash on failure: they are meant for tests and
/// fixtures, where failing fast is what one wants.
public enum JsonProvider {
    /// The shared encoder. Do not reconfigure it; use ``makeEncoder()`` for a variant.
    public static let encoder: JSONEncoder = makeEncoder()

    /// The shared decoder. Do not reconfigure it; use ``makeDecoder()`` for a variant.
    public static let decoder: JSONDecoder = makeDecoder()

    /// A new encoder configured like the shared one.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(fractionalDateStyle))
        }
        return encoder
    }

    /// A new decoder configured like the shared one.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 date, found \"\(text)\"")
            }
            return date
        }
        return decoder
    }

    /// Parses ISO 8601 text with or without fractional seconds, or returns `nil`.
    public static func parseDate(_ text: String) -> Date? {
        if let date = try? fractionalDateStyle.parse(text) { return date }
        return try? wholeSecondDateStyle.parse(text)
    }

    /// Encodes a value to JSON.
    ///
    /// - throws: `EncodingError` when the value cannot be encoded.
    public static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        try encoder.encode(value)
    }

    /// Decodes a value from JSON data.
    ///
    /// - throws: `DecodingError` when the data is not JSON or does not match the type.
    public static func decode<Value: Decodable>(_ type: Value.Type = Value.self, from data: Data) throws -> Value {
        try decoder.decode(type, from: data)
    }

    /// Decodes a value from JSON text.
    ///
    /// - throws: `DecodingError` when the text is not JSON or does not match the type.
    public static func decode<Value: Decodable>(_ type: Value.Type = Value.self, from text: String) throws -> Value {
        try decoder.decode(type, from: Data(text.utf8))
    }

    /// Decodes a value from JSON text, with the type inferred from the context.
    public static func decode<Value: Decodable>(_ text: String) throws -> Value {
        try decoder.decode(Value.self, from: Data(text.utf8))
    }

    /// Encodes a value, crashing on failure. For tests and fixtures only.
    public static func forceEncode<Value: Encodable>(_ value: Value) -> Data {
        try! encode(value)
    }

    /// Decodes a value, crashing on failure. For tests and fixtures only.
    public static func forceDecode<Value: Decodable>(_ type: Value.Type = Value.self, from data: Data) -> Value {
        try! decode(type, from: data)
    }

    /// Decodes a value from text, crashing on failure. For tests and fixtures only.
    public static func forceDecode<Value: Decodable>(_ type: Value.Type = Value.self, from text: String) -> Value {
        try! decode(type, from: text)
    }

    private static let fractionalDateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let wholeSecondDateStyle = Date.ISO8601FormatStyle()
}
