import Foundation
import Slippers

extension ItemKey {
    /// The key an id typed on the command line names.
    ///
    /// All digits (after an optional `-`) is an integer id; text in double quotes is a string id,
    /// read as a JSON string (`'"1"'` is the string `1`, not the integer);
    /// anything else is a string id as typed.
    init(commandLineArgument text: String) {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int(text) {
            self = .integer(value)
        } else if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""),
            let value = try? JSONDecoder().decode(String.self, from: Data(text.utf8))
        {
            self = .string(value)
        } else {
            self = .string(text)
        }
    }

    /// Whether the id was typed in double quotes: a string id that is not also tried as an integer.
    static func isQuoted(commandLineArgument text: String) -> Bool {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"")
    }

    /// The id as a user types it back: a string id that would read as an integer, or that starts with a
    /// double quote, is shown as a JSON string (`"1"`), so that the integer 1 and the string "1" differ.
    var commandLineText: String {
        switch self {
        case .integer(let value):
            return String(value)
        case .string(let value):
            guard ItemKey(commandLineArgument: value) != self || value.hasPrefix("\"") else { return value }
            let encoded = try? JSONEncoder().encode(value)
            return encoded.map { String(decoding: $0, as: UTF8.self) } ?? value
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
