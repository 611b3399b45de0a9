import Foundation

/// Stable JSON for scripts: sorted keys, snake_case, ISO 8601 dates.
enum JSONOutput {
    static func render<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
