import Foundation
import Slippers

extension ItemKey {
    /// The key as the `items.key` column holds it: JSON text, a number or a string, so 1 and "1" stay two keys.
    var postgresText: String {
        switch self {
        case .integer(let value):
            return String(value)
        case .string(let value):
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let data = (try? encoder.encode(value)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// The key of a `items.key` column's JSON text; text that is not JSON is a string key as it is.
    init(postgresText text: String) {
        if text.hasPrefix("\""), let value = try? JSONDecoder().decode(String.self, from: Data(text.utf8)) {
            self = .string(value)
        } else if let value = Int(text) {
            self = .integer(value)
        } else {
            self = .string(text)
        }
    }
}
