/// JSON, read with its members' order kept (Foundation's reader does not keep it), written compact.
extension EncodedQueryObject {
    /// The value of a whole JSON text; `nil` when it is not one value, well formed.
    static func parseJSON(_ text: String) -> Value? {
        var reader = JSONReader(scalars: Array(text.unicodeScalars))
        reader.skipSpace()
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == reader.scalars.count ? value : nil
    }

    /// A reader of JSON text, one value at a time.
    private struct JSONReader {
        let scalars: [Unicode.Scalar]
        var index = 0

        var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func skipSpace() {
            while let scalar = current, scalar == " " || scalar == "\n" || scalar == "\r" || scalar == "\t" {
                index += 1
            }
        }

        mutating func value(depth: Int) -> Value? {
            guard depth < EncodedQueryObject.maximumDepth, let scalar = current else { return nil }
            switch scalar {
            case "{": return object(depth: depth)
            case "[": return array(depth: depth)
            case "\"": return string().map(Value.string)
            case "t": return word("true", .bool(true))
            case "f": return word("false", .bool(false))
            case "n": return word("null", .null)
            default: return number()
            }
        }

        private mutating func word(_ text: String, _ value: Value) -> Value? {
            for expected in text.unicodeScalars {
                guard current == expected else { return nil }
                index += 1
            }
            return value
        }

        private mutating func object(depth: Int) -> Value? {
            index += 1
            skipSpace()
            var members: [Member] = []
            if current == "}" {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard current == "\"", let name = string() else { return nil }
                skipSpace()
                guard current == ":" else { return nil }
                index += 1
                skipSpace()
                guard let value = value(depth: depth + 1) else { return nil }
                members.append(Member(name: name, value: value))
                skipSpace()
                switch current {
                case ",": index += 1
                case "}":
                    index += 1
                    return .object(members)
                default: return nil
                }
            }
        }

        private mutating func array(depth: Int) -> Value? {
            index += 1
            skipSpace()
            var elements: [Value] = []
            if current == "]" {
                index += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipSpace()
                switch current {
                case ",": index += 1
                case "]":
                    index += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        private mutating func string() -> String? {
            index += 1
            var text = String.UnicodeScalarView()
            while let scalar = current {
                index += 1
                switch scalar {
                case "\"":
                    return String(text)
                case "\\":
                    guard let escape = current else { return nil }
                    index += 1
                    switch escape {
                    case "\"", "\\", "/": text.append(escape)
                    case "n": text.append("\n")
                    case "t": text.append("\t")
                    case "r": text.append("\r")
                    case "b": text.append("\u{8}")
                    case "f": text.append("\u{C}")
                    case "u":
                        guard let scalar = unicodeEscape() else { return nil }
                        text.append(scalar)
                    default: return nil
                    }
                default:
                    guard scalar.value >= 0x20 else { return nil }
                    text.append(scalar)
                }
            }
            return nil
        }

        /// The scalar of a `\u` escape whose `\u` was read, a surrogate pair's two escapes in one.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard var value = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(value) {
                guard current == "\\", index + 1 < scalars.count, scalars[index + 1] == "u" else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            return Unicode.Scalar(value)
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= scalars.count else { return nil }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[index..<index + 4])
            guard let value = UInt32(String(text), radix: 16) else { return nil }
            index += 4
            return value
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
                if current == "-" || current == "+" { index += 1 }
                guard digits() else { return nil }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[start..<index])
            return .number(String(text))
        }

        private mutating func digits() -> Bool {
            let start = index
            while let scalar = current, ("0"..."9").contains(scalar) { index += 1 }
            return index > start
        }
    }

    /// A string as JSON writes it, quoted, with `"`, `\` and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}

extension EncodedQueryObject.Value {
    /// The value written as compact JSON.
    var jsonText: String {
        switch self {
        case .object(let members):
            "{"
                + members.map { EncodedQueryObject.jsonString($0.name) + ":" + $0.value.jsonText }
                .joined(separator: ",") + "}"
        case .array(let elements): "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
        case .string(let text): EncodedQueryObject.jsonString(text)
        case .number(let text): text
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        }
    }
}
