/// A text table with aligned columns, for people: what the CLI and the benchmark print.
package struct TextTable: Sendable {
    /// How a column's cells line up.
    package enum Alignment: Sendable {
        /// Text: cells start at the column's left edge.
        case left
        /// Numbers: cells end at the column's right edge.
        case right
    }

    /// A column: its header and alignment.
    package struct Column: Sendable {
        /// The column's title, on the first line.
        package var header: String
        /// How the column's cells line up.
        package var alignment: Alignment

        /// Creates a column, left-aligned unless told.
        package init(header: String, alignment: Alignment = .left) {
            self.header = header
            self.alignment = alignment
        }
    }

    /// The columns, left to right.
    package var columns: [Column]
    /// The rows added so far, each with one cell per column.
    package private(set) var rows: [[String]] = []

    /// Creates an empty table with these columns.
    package init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are blank, extra cells are dropped.
    package mutating func append(_ cells: [String]) {
        rows.append((0..<columns.count).map { $0 < cells.count ? cells[$0] : "" })
    }

    /// The table as lines: a header, a rule, then the rows; no line ends in spaces.
    package func render() -> String {
        let widths = columns.indices.map { index in
            rows.reduce(columns[index].header.count) { max($0, $1[index].count) }
        }
        func line(_ cells: [String]) -> String {
            var text = cells.indices.map { index in
                let padding = String(repeating: " ", count: widths[index] - cells[index].count)
                return columns[index].alignment == .left ? cells[index] + padding : padding + cells[index]
            }
            .joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(columns.map(\.header)), rule] + rows.map(line)).joined(separator: "\n")
    }

    /// Labelled values as aligned `label  value` lines, for one record.
    package static func fields(_ fields: [(label: String, value: String)]) -> String {
        let width = fields.map(\.label.count).max() ?? 0
        return fields.map { field in
            field.label + String(repeating: " ", count: width - field.label.count) + "  " + field.value
        }
        .joined(separator: "\n")
    }
}
