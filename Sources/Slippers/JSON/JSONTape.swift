/// A JSON document checked and indexed in one pass: one entry per value, in document order.
///
/// An object's entry is followed by its members, each a key entry (a string)
/// then the value's entries; an array's entry by its elements' entries. A
/// container's entry records where its entries end, so a value is skipped in
/// one step. Scalars record their byte range in the document.
///
/// The parser is strict RFC 8259 and stricter where that is cheap: it accepts
/// only what `JSONDecoder` accepts, and refuses (returns `nil` from
/// ``parse(_:)``) anything else, including what `JSONDecoder` might take, such
/// as nesting deeper than ``maximumDepth``. Its callers then fall back to
/// `JSONDecoder`, which decides: a refusal here is never an error of its own.
///
/// The networking module's `JSONScanner` reads responses apart from this
/// index. The two cost about the same to check a document (on a page of 50
/// items, 24 KB: 365 000 instructions to build this index, 423 000 for the
/// scanner's check; `Scripts/measure-json-indexes.sh`), so a single one would
/// save code, not time. They stay two because they answer differently: the
/// scanner names the key path and byte of a fault and tells a body cut short
/// from a malformed one (a retry depends on it), and slices values by byte
/// range; this index refuses without a reason, and records no container's bytes.
package struct JSONTape {
    /// What an entry holds.
    package enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    /// One value of the document.
    package struct Entry {
        /// The value's kind.
        package var kind: Kind
        /// For a string: whether it has escape sequences. For a number: whether it has a fraction or an exponent.
        package var flag: Bool
        /// For a container: its number of members or elements.
        package var count: Int32
        /// For a scalar: the offset of its first byte (a string's, after the quote).
        package var start: Int32
        /// For a scalar: the offset after its last byte (a string's, before the quote).
        /// For a container: the index of the entry after its last one.
        package var end: Int32
    }

    /// The index of the entry after the value whose entry is `entries[index]`: past a container's members or elements.
    package static func index(after index: Int, in entries: [Entry]) -> Int {
        let entry = entries[index]
        switch entry.kind {
        case .object, .array: return Int(entry.end)
        default: return index + 1
        }
    }

    /// The text of the string `entry` of `bytes`, escapes resolved; `nil` when one of its `\u`
    /// escapes is not a Unicode scalar, which the tape refuses before (so only a defensive `nil`).
    package static func text(of entry: Entry, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let content = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)])
        return entry.flag ? JSONStringContent.text(content) : String(decoding: content, as: UTF8.self)
    }

    /// Containers nested deeper than this are refused.
    package static let maximumDepth = 256

    /// The entries, the document's first value first.
    package private(set) var entries: [Entry] = []

    /// An empty tape, for ``reparse(_:)`` to fill.
    package init() {}

    private init(entries: [Entry]) {
        self.entries = entries
    }

    /// Indexes `bytes`, or returns `nil` when they are not a JSON document this parser takes.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> JSONTape? {
        var tape = JSONTape()
        return tape.reparse(bytes) ? tape : nil
    }

    /// Indexes `bytes` as ``parse(_:)`` does, in this tape's storage (a loop over many documents
    /// allocates once); `false`, and no entries, when the parser refuses them.
    package mutating func reparse(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Offsets are kept in 32 bits; stored items are far smaller.
        guard bytes.count < Int(Int32.max) else {
            entries.removeAll(keepingCapacity: true)
            return false
        }
        var parser = Parser(bytes: bytes)
        swap(&parser.entries, &entries)
        parser.entries.removeAll(keepingCapacity: true)
        parser.entries.reserveCapacity(bytes.count / 16)
        parser.skipWhitespace()
        var parsed = parser.parseValue(depth: 0)
        parser.skipWhitespace()
        parsed = parsed && parser.offset == bytes.count
        if !parsed { parser.entries.removeAll(keepingCapacity: true) }
        swap(&parser.entries, &entries)
        return parsed
    }

    private struct Parser {
        package let bytes: UnsafeRawBufferPointer
        package var offset = 0
        package var entries: [Entry] = []

        package init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        package mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0A, 0x0D: offset += 1
                default: return
                }
            }
        }

        package mutating func parseValue(depth: Int) -> Bool {
            guard let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "{"): return depth < JSONTape.maximumDepth && parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return depth < JSONTape.maximumDepth && parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return parseString()
            case UInt8(ascii: "t"): return parseLiteral("true", kind: .true)
            case UInt8(ascii: "f"): return parseLiteral("false", kind: .false)
            case UInt8(ascii: "n"): return parseLiteral("null", kind: .null)
            default: return parseNumber()
            }
        }

        private mutating func parseObject(depth: Int) -> Bool {
            parseContainer(.object, closing: UInt8(ascii: "}")) { parser in
                guard parser.current == UInt8(ascii: "\""), parser.parseString() else { return false }
                parser.skipWhitespace()
                guard parser.current == UInt8(ascii: ":") else { return false }
                parser.offset += 1
                parser.skipWhitespace()
                return parser.parseValue(depth: depth)
            }
        }

        private mutating func parseArray(depth: Int) -> Bool {
            parseContainer(.array, closing: UInt8(ascii: "]")) { parser in parser.parseValue(depth: depth) }
        }

        /// An object or an array: its opening byte, then `parseMember` for each member up to `closing`.
        private mutating func parseContainer(
            _ kind: Kind, closing: UInt8, parseMember: (inout Parser) -> Bool
        ) -> Bool {
            let index = open(kind)
            offset += 1
            skipWhitespace()
            var count: Int32 = 0
            if current == closing {
                offset += 1
                return close(index, count: count)
            }
            while true {
                guard parseMember(&self) else { return false }
                count += 1
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    offset += 1
                    skipWhitespace()
                case closing:
                    offset += 1
                    return close(index, count: count)
                default:
                    return false
                }
            }
        }

        private mutating func open(_ kind: Kind) -> Int {
            entries.append(Entry(kind: kind, flag: false, count: 0, start: Int32(offset), end: 0))
            return entries.count - 1
        }

        private mutating func close(_ index: Int, count: Int32) -> Bool {
            entries[index].count = count
            entries[index].end = Int32(entries.count)
            return true
        }

        private mutating func parseLiteral(_ literal: StaticString, kind: Kind) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard offset + length <= bytes.count else { return false }
            for position in 0..<length where bytes[offset + position] != literal.utf8Start[position] {
                return false
            }
            entries.append(Entry(kind: kind, flag: false, count: 0, start: Int32(offset), end: Int32(offset + length)))
            offset += length
            return true
        }

        /// A string: valid UTF-8, no control characters, only JSON's escapes, no lone surrogate.
        private mutating func parseString() -> Bool {
            offset += 1
            let start = offset
            var escaped = false
            while offset < bytes.count {
                skipPlainASCII()
                guard offset < bytes.count else { return false }
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    entries.append(
                        Entry(kind: .string, flag: escaped, count: 0, start: Int32(start), end: Int32(offset)))
                    offset += 1
                    return true
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                    guard skipEscape() else { return false }
                } else if byte < 0x20 {
                    return false
                } else if byte < 0x80 {
                    offset += 1
                } else {
                    guard skipMultiByteScalar() else { return false }
                }
            }
            return false
        }

        /// Skips the run of bytes that need no check beyond their value: printable ASCII but `"` and `\\`.
        private mutating func skipPlainASCII() {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var position = offset
            let end = bytes.count
            // Eight bytes at a time while none is a control character, non-ASCII, `"` or `\\`.
            while position + 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                guard !Self.needsCheck(word) else { break }
                position += 8
            }
            while position < end {
                let byte = base[position]
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                position += 1
            }
            offset = position
        }

        /// Whether one of the eight bytes of `word` is below 0x20, above 0x7F, `"` or `\\` (SWAR: no branch per byte).
        private static func needsCheck(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
            let control = (word &- ones &* 0x20) & ~word & highs
            return word & highs != 0 || control != 0
                || hasZeroByte(word ^ (ones &* UInt64(UInt8(ascii: "\"")))) || hasZeroByte(word ^ (ones &* 0x5C))
        }

        /// Skips `\x` or `\uXXXX` (a surrogate pair as two, in order).
        private mutating func skipEscape() -> Bool {
            guard offset + 1 < bytes.count else { return false }
            switch bytes[offset + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                offset += 2
                return true
            case UInt8(ascii: "u"):
                guard let unit = JSONTape.hexUnit(bytes, at: offset + 2) else { return false }
                offset += 6
                switch unit {
                case 0xD800...0xDBFF:
                    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                        bytes[offset + 1] == UInt8(ascii: "u"),
                        let low = JSONTape.hexUnit(bytes, at: offset + 2), (0xDC00...0xDFFF).contains(low)
                    else { return false }
                    offset += 6
                    return true
                case 0xDC00...0xDFFF:
                    return false
                default:
                    return true
                }
            default:
                return false
            }
        }

        /// Skips one well-formed UTF-8 sequence of two to four bytes (no overlong form, no surrogate, ≤ U+10FFFF).
        private mutating func skipMultiByteScalar() -> Bool {
            let lead = bytes[offset]
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: return false
            }
            guard offset + length <= bytes.count else { return false }
            let second = bytes[offset + 1]
            guard second >= lower && second <= upper else { return false }
            for position in 2..<max(length, 2) where bytes[offset + position] & 0xC0 != 0x80 {
                return false
            }
            offset += length
            return true
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        private mutating func parseNumber() -> Bool {
            let start = offset
            if current == UInt8(ascii: "-") { offset += 1 }
            guard let first = current, isDigit(first) else { return false }
            offset += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            var isInteger = true
            if current == UInt8(ascii: ".") {
                offset += 1
                guard let digit = current, isDigit(digit) else { return false }
                skipDigits()
                isInteger = false
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard let digit = current, isDigit(digit) else { return false }
                skipDigits()
                isInteger = false
            }
            // A number runs into the next structural character or whitespace; "01" or "1x" is refused.
            if let next = current {
                switch next {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: break
                default: return false
                }
            }
            entries.append(
                Entry(kind: .number, flag: !isInteger, count: 0, start: Int32(start), end: Int32(offset)))
            return true
        }

        private mutating func skipDigits() {
            while let byte = current, isDigit(byte) { offset += 1 }
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
    }

    /// The four hex digits at `offset` as a UTF-16 code unit, or `nil`.
    private static func hexUnit(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16? {
        guard offset + 4 <= bytes.count else { return nil }
        var unit: UInt16 = 0
        for position in offset..<offset + 4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }
}
