/// Rison, as rison.js reads and writes it: `(a:1,b:'x y')` for an object, `!(1,2)` for an
/// array, `!t`, `!f`, `!n` for `true`, `false` and `null`, strings bare when they are ids
/// and quoted with `'` otherwise, `!` escaping `!` and `'` inside quotes.
extension EncodedQueryObject {
    /// The characters no bare string (id) holds.
    private static let notIDCharacters: Set<Character> = [" ", "'", "!", ":", "(", ")", ",", "*", "@", "$"]
    /// The characters no bare string starts with: they start a number.
    private static let notIDStart: Set<Character> = ["-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]

    /// Whether a string is written bare: not empty, no character outside an id's, not starting as a number does.
    static func isRisonID(_ text: String) -> Bool {
        guard let first = text.first, !notIDStart.contains(first) else { return false }
        return !text.contains(where: notIDCharacters.contains)
    }

    /// A string as rison writes it: bare when it is an id, else quoted with `!` and `'` escaped.
    static func risonString(_ text: String) -> String {
        if isRisonID(text) { return text }
        var quoted = "'"
        for character in text {
            if character == "!" || character == "'" { quoted.append("!") }
            quoted.append(character)
        }
        return quoted + "'"
    }

    /// The value of a whole rison text; `nil` when it is not one value, well formed.
    static func parseRison(_ text: String) -> Value? {
        var reader = RisonReader(characters: Array(text))
        guard let value = reader.value(depth: 0), reader.index == reader.characters.count else { return nil }
        return value
    }

    /// A reader of rison text, one value at a time.
    private struct RisonReader {
        let characters: [Character]
        var index = 0

        var current: Character? { index < characters.count ? characters[index] : nil }

        mutating func value(depth: Int) -> Value? {
            guard depth < EncodedQueryObject.maximumDepth, let character = current else { return nil }
            switch character {
            case "(":
                index += 1
                return object(depth: depth)
            case "!":
                index += 1
                guard let next = current else { return nil }
                index += 1
                switch next {
                case "t": return .bool(true)
                case "f": return .bool(false)
                case "n": return .null
                case "(": return array(depth: depth)
                default: return nil
                }
            case "'":
                return quotedString().map(Value.string)
            case "-", "0"..."9":
                return number()
            default:
                return id().map(Value.string)
            }
        }

        private mutating func object(depth: Int) -> Value? {
            var members: [Member] = []
            if current == ")" {
                index += 1
                return .object(members)
            }
            while true {
                guard case .string(let name)? = key(), current == ":" else { return nil }
                index += 1
                guard let value = value(depth: depth + 1) else { return nil }
                members.append(Member(name: name, value: value))
                switch current {
                case ",": index += 1
                case ")":
                    index += 1
                    return .object(members)
                default: return nil
                }
            }
        }

        private mutating func key() -> Value? {
            if current == "'" { return quotedString().map(Value.string) }
            return id().map(Value.string)
        }

        private mutating func array(depth: Int) -> Value? {
            var elements: [Value] = []
            if current == ")" {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                switch current {
                case ",": index += 1
                case ")":
                    index += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        private mutating func quotedString() -> String? {
            index += 1
            var text = ""
            while let character = current {
                index += 1
                switch character {
                case "'":
                    return text
                case "!":
                    guard let escaped = current, escaped == "!" || escaped == "'" else { return nil }
                    index += 1
                    text.append(escaped)
                default:
                    text.append(character)
                }
            }
            return nil
        }

        private mutating func id() -> String? {
            let start = index
            while let character = current, !EncodedQueryObject.notIDCharacters.contains(character) { index += 1 }
            guard index > start else { return nil }
            return String(characters[start..<index])
        }

        private mutating func number() -> Value? {
            let start = index
            if current == "-" { index += 1 }
            guard digits() else { return nil }
            if current == "." {
                index += 1
                guard digits() else { return nil }
            }
            if current == "e" || current == "E" {
                index += 1
                if current == "-" { index += 1 }
                guard digits() else { return nil }
            }
            return .number(String(characters[start..<index]))
        }

        private mutating func digits() -> Bool {
            let start = index
            while let character = current, character.isASCII, character.isNumber { index += 1 }
            return index > start
        }
    }
}

extension EncodedQueryObject.Value {
    /// The value written in rison.
    var risonText: String {
        switch self {
        case .object(let members):
            "("
                + members.map { EncodedQueryObject.risonString($0.name) + ":" + $0.value.risonText }
                .joined(separator: ",") + ")"
        case .array(let elements): "!(" + elements.map(\.risonText).joined(separator: ",") + ")"
        case .string(let text): EncodedQueryObject.risonString(text)
        case .number(let text): text
        case .bool(let value): value ? "!t" : "!f"
        case .null: "!n"
        }
    }
}
