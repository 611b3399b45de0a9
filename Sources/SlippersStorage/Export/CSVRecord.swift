/// One line of RFC 4180 CSV.
///
/// A field is quoted when it holds a comma, a double quote, a carriage return or a
/// line feed, or begins or ends with a space; a quote inside it is doubled. Lines
/// end with CRLF, as RFC 4180 says.
package enum CSVRecord {
    /// The bytes of one record, its line ending included.
    package static func line(_ fields: [String]) -> String {
        var line = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { line += "," }
            line += quoted(field)
        }
        return line + "\r\n"
    }

    /// `field` as it stands in a record.
    package static func quoted(_ field: String) -> String {
        let needsQuotes =
            field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || field.first == " " || field.last == " "
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
