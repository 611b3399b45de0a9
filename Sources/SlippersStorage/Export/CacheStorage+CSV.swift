import Foundation
import Slippers

extension CacheStorage {
    /// Writes a list's items as CSV, in list order and each id once, by the rules of
    /// ``SQLiteCache/writeCSV(of:to:)``, from any backend.
    ///
    /// - throws: `CacheError` when there is no such list; the backend's error on a
    ///   failed read; whatever `write` throws.
    public func writeCSV(of key: String, to write: (Data) throws -> Void) async throws {
        var table = CSVTable()
        try await forEachItem(in: key) { table.learnColumns(of: $0) }
        guard let header = table.header else { return }
        try write(header)
        try await forEachItem(in: key) { try write(table.record(of: $0)) }
    }
}

/// The columns of a CSV export, learnt from a first read of the items, and its records.
package struct CSVTable {
    private var columns: [String] = []
    private var known: [String: Int] = [:]

    /// A table with no columns yet.
    package init() {}

    /// Adds the columns of `item` not met yet, in the order they appear.
    package mutating func learnColumns(of item: RawItem) {
        for cell in Self.cells(of: item) where known[cell.column] == nil {
            known[cell.column] = columns.count
            columns.append(cell.column)
        }
    }

    /// The header record, or `nil` when no item has a column.
    package var header: Data? {
        columns.isEmpty ? nil : Data(CSVRecord.line(columns).utf8)
    }

    /// The record of `item`: its cells under the header's columns.
    package func record(of item: RawItem) -> Data {
        var row = [String](repeating: "", count: columns.count)
        for cell in Self.cells(of: item) {
            // An item saved between the two reads may bring a column the header lacks: it is left out.
            if let index = known[cell.column] { row[index] = cell.text }
        }
        return Data(CSVRecord.line(row).utf8)
    }

    /// An item's cells; bytes that are not JSON (never saved by the cache) are one `value` cell of text.
    private static func cells(of item: RawItem) -> [(column: String, text: String)] {
        FlatItem(json: item.json)?.cells ?? [("value", String(decoding: item.json, as: UTF8.self))]
    }
}
