/// A text table with aligned columns, for people.
struct Table {
    /// How a column's cells line up.
    enum Alignment {
        case left
        case right
    }

    /// A column: its header and alignment.
    struct Column {
        var header: String
        var alignment: Alignment = .left
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
            cells.indices.map { index in
                let padding = String(repeating: " ", count: widths[index] - cells[index].count)
                return columns[index].alignment == .left ? cells[index] + padding : padding + cells[index]
            }
            .joined(separator: "  ")
            .trimmingTrailingSpaces()
        }
        let header = line(columns.map(\.header))
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([header, rule] + rows.map(line)).joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}

extension Table {
    /// Labelled values as aligned `label  value` lines, for one record.
    static func fields(_ fields: [(label: String, value: String)]) -> String {
        let width = fields.map(\.label.count).max() ?? 0
        return fields.map { field in
            field.label + String(repeating: " ", count: width - field.label.count) + "  " + field.value
        }
        .joined(separator: "\n")
    }
}
