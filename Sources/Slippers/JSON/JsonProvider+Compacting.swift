import Foundation

extension JsonProvider {
    /// The JSON text `json` holds, without the whitespace between its tokens: one line, whatever
    /// the formatting it came in; strings, numbers and the order of members stay as they were.
    ///
    /// For example, an item a server pretty-printed becomes one line of newline-delimited JSON:
    ///
    /// ```swift
    /// let line = JsonProvider.compacted(Data("{\n  \"id\": 1,\n  \"title\": \"a b\"\n}".utf8))
    /// // {"id":1,"title":"a b"}
    /// ```
    ///
    /// Bytes that are not JSON lose their whitespace outside quotes all the same: the function never fails.
    public static func compacted(_ json: Data) -> Data {
        // Whitespace outside strings is rare in what servers send: leave such text untouched.
        guard json.contains(where: { isWhitespace($0) }) else { return json }
        var compact = Data()
        compact.reserveCapacity(json.count)
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                compact.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                compact.append(byte)
            } else if !isWhitespace(byte) {
                compact.append(byte)
            }
        }
        return compact
    }

    /// Whether `byte` is JSON whitespace: space, tab, line feed or carriage return (RFC 8259).
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
