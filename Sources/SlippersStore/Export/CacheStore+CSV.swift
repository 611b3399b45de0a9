import Foundation
import Slippers

extension CacheStore {
    /// Writes a collection's items as CSV, in list order and each id once.
    ///
    /// The first record names the columns: every column any item has, in the order
    /// they first appear. Nested objects become dotted columns, arrays stay JSON text
    /// in one cell, and a missing or `null` value is an empty cell (see the rules of
    /// RFC 4180 quoting in the output). The items are read twice, once for the columns
    /// and once for the rows, so memory holds one item and the column names, however
    /// long the list.
    ///
    /// For example:
    ///
    /// ```swift
    /// var csv = Data()
    /// try store.writeCSV(of: "https://api.example.com/posts") { csv.append($0) }
    /// ```
    ///
    /// - parameter key: The collection's key.
    /// - parameter write: Receives the output in chunks, the header first.
    /// - throws: ``StoreError`` when there is no such collection; `DatabaseError` on a
    ///   failed read; whatever `write` throws.
    public func writeCSV(of key: String, to write: (Data) throws -> Void) throws {
        var columns: [String] = []
        var known: [String: Int] = [:]
        try forEachItem(in: key) { item in
            for cell in Self.cells(of: item) where known[cell.column] == nil {
                known[cell.column] = columns.count
                columns.append(cell.column)
            }
        }
        guard !columns.isEmpty else { return }
        try write(Data(CSVRecord.line(columns).utf8))
        var row = [String](repeating: "", count: columns.count)
        try forEachItem(in: key) { item in
            for index in row.indices { row[index] = "" }
            for cell in Self.cells(of: item) {
                // An item saved between the two reads may bring a column the header lacks: it is left out.
                if let index = known[cell.column] { row[index] = cell.text }
            }
            try write(Data(CSVRecord.line(row).utf8))
        }
    }

    /// An item's cells; bytes that are not JSON (never saved by the store) are one `value` cell of text.
    private static func cells(of item: RawItem) -> [(column: String, text: String)] {
        FlatItem(json: item.json)?.cells ?? [("value", String(decoding: item.json, as: UTF8.self))]
    }
}
