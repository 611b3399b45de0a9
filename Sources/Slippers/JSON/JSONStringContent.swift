/// The text of a JSON string's content: the bytes between its quotes, escapes resolved.
///
/// Shared by the package's two JSON readers, the HTTP source's scanner and
/// the cache's item decoder, which both keep items as bytes and read a
/// string only when they need its text.
package enum JSONStringContent {
    /// The text `content` spells, or `nil` when one of its `\u` escapes is not a Unicode scalar.
    ///
    /// An unknown escape stands for its character (`\x` is `x`); a lone
    /// backslash at the end is kept as it is. Callers that need strict JSON
    /// check the escapes before.
    package static func text(_ content: UnsafeBufferPointer<UInt8>) -> String? {
        guard content.contains(UInt8(ascii: "\\")) else { return String(decoding: content, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(content.count)
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < content.count else {
                result.append(byte)
                index += 1
                continue
            }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(content, index) else { return nil }
                index += 4
                if (0xD800..<0xDC00).contains(scalar), index + 6 <= content.count,
                    content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u"),
                    let low = hex4(content, index + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                UTF8.encode(unicode) { result.append($0) }
            default: result.append(escape)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The four hex digits at `index` as a number, or `nil`.
    private static func hex4(_ content: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt32? {
        guard index + 4 <= content.count else { return nil }
        return UInt32(
            String(decoding: UnsafeBufferPointer(rebasing: content[index..<index + 4]), as: UTF8.self), radix: 16)
    }
}
