import Foundation
import Slippers

/// An item's JSON object flattened into named cells, for tables such as CSV.
///
/// Nested objects become dotted column names (`{"author": {"name": "A"}}` gives the
/// column `author.name`); arrays, and empty objects, stay in one cell as compact JSON
/// text; `null` is an empty cell; strings are unescaped; numbers and booleans keep
/// their JSON spelling. Members keep the order they have in the item. An item that
/// is not a JSON object is one cell under the column `value`.
package struct FlatItem {
    /// The item's cells, in the item's member order.
    private(set) var cells: [(column: String, text: String)] = []

    /// Flattens `json`, or returns `nil` when it is not JSON the tape parser takes.
    package init?(json: Data) {
        let bytes = [UInt8](json)
        guard let tape = bytes.withUnsafeBytes(JSONTape.parse) else { return nil }
        let reader = Reader(bytes: bytes, entries: tape.entries)
        guard let first = tape.entries.first else { return nil }
        if first.kind == .object, first.count > 0 {
            reader.flatten(objectAt: 0, prefix: "", into: &cells)
        } else {
            cells.append(("value", reader.cell(at: 0)))
        }
    }

    /// Reads cells off a tape.
    private struct Reader {
        package let bytes: [UInt8]
        package let entries: [JSONTape.Entry]

        package func flatten(objectAt index: Int, prefix: String, into cells: inout [(column: String, text: String)]) {
            var position = index + 1
            for _ in 0..<entries[index].count {
                let column = prefix + string(at: position)
                let value = position + 1
                let entry = entries[value]
                if entry.kind == .object, entry.count > 0 {
                    flatten(objectAt: value, prefix: column + ".", into: &cells)
                } else {
                    cells.append((column, cell(at: value)))
                }
                position = skip(value)
            }
        }

        /// The text of one cell: a scalar as text, a container as compact JSON.
        package func cell(at index: Int) -> String {
            let entry = entries[index]
            switch entry.kind {
            case .null: return ""
            case .string: return string(at: index)
            case .number, .true, .false: return text(entry)
            case .object, .array:
                var json: [UInt8] = []
                writeJSON(at: index, into: &json)
                return String(decoding: json, as: UTF8.self)
            }
        }

        /// Writes the value at `index` as compact JSON, strings with their original escapes.
        private func writeJSON(at index: Int, into json: inout [UInt8]) {
            let entry = entries[index]
            switch entry.kind {
            case .object, .array:
                let isObject = entry.kind == .object
                json.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
                var position = index + 1
                for member in 0..<Int(entry.count) {
                    if member > 0 { json.append(UInt8(ascii: ",")) }
                    if isObject {
                        writeJSON(at: position, into: &json)
                        json.append(UInt8(ascii: ":"))
                        position += 1
                    }
                    writeJSON(at: position, into: &json)
                    position = skip(position)
                }
                json.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            case .string:
                json.append(UInt8(ascii: "\""))
                json.append(contentsOf: bytes[Int(entry.start)..<Int(entry.end)])
                json.append(UInt8(ascii: "\""))
            case .number, .true, .false, .null:
                json.append(contentsOf: bytes[Int(entry.start)..<Int(entry.end)])
            }
        }

        private func skip(_ index: Int) -> Int {
            JSONTape.index(after: index, in: entries)
        }

        private func text(_ entry: JSONTape.Entry) -> String {
            String(decoding: bytes[Int(entry.start)..<Int(entry.end)], as: UTF8.self)
        }

        /// The unescaped text of the string at `index`; the tape has checked its escapes.
        private func string(at index: Int) -> String {
            let entry = entries[index]
            return bytes.withUnsafeBufferPointer { JSONTape.text(of: entry, in: $0) } ?? text(entry)
        }
    }
}
