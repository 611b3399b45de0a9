/// A text table with aligned columns, for people.
struct TextTable {
    /// A column: its header and whether its cells line up on the right (numbers) or the left.
    struct Column {
        var header: String
        var isRightAligned = false
    }

    var columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are blank, extra cells are dropped.
    mutating func append(_ cells: [String]) {
        rows.append((0..<columns.count).map { $0 < cells.count ? cells[$0] : "" })
    }

    /// The table as lines: a header, a rule, then the rows.
    func render() -> String {
        let widths = columns.indices.map { index in
            rows.reduce(columns[index].header.count) { max($0, $1[index].count) }
        }
        func line(_ cells: [String]) -> String {
            var text = cells.indices.map { index in
                let padding = String(repeating: " ", count: widths[index] - cells[index].count)
                return columns[index].isRightAligned ? padding + cells[index] : cells[index] + padding
            }
            .joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(columns.map(\.header)), rule] + rows.map(line)).joined(separator: "\n")
    }
}
