import Foundation
import TableOutput

/// The outcome of a benchmark run: the machine, then one entry per figure.
///
/// Its JSON form, for scripts:
///
/// ```json
/// {"machine": {"cpu": "…", "cores": 2, …},
///  "figures": [{"name": "…", "unit": "us", "value": 512.3, "baseline": "…",
///               "baseline_value": 498.1, "ratio": 1.03, "target": "info", "met": null}]}
/// ```
struct Report: Sendable, Encodable {
    var machine: Machine
    var figures: [Figure]

    /// Pretty-printed JSON with sorted keys, so two reports diff line by line.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// An aligned table for people, headed by the machine and followed by `notes`.
    func table(notes: [String] = []) -> String {
        var table = TextTable([
            .init(header: "figure"),
            .init(header: "value", alignment: .right),
            .init(header: "p10-p90", alignment: .right),
            .init(header: "baseline"),
            .init(header: "baseline value", alignment: .right),
            .init(header: "ratio", alignment: .right),
            .init(header: "target"),
            .init(header: "met"),
        ])
        for figure in figures {
            table.append([
                figure.name,
                Self.format(figure.value, figure.unit),
                figure.spread.map { "\(Self.number($0.lowerBound))-\(Self.number($0.upperBound))" } ?? "",
                figure.baseline ?? "",
                figure.baselineValue.map { Self.format($0, figure.unit) } ?? "",
                figure.ratio.map { String(format: "%.2fx", $0) } ?? "",
                figure.targetText,
                figure.isMet.map { $0 ? "yes" : "NO" } ?? "-",
            ])
        }
        return (["machine: " + machine.summary, "", table.render()] + (notes.isEmpty ? [] : [""] + notes))
            .joined(separator: "\n")
    }

    private static func format(_ value: Double, _ unit: Figure.Unit) -> String {
        switch unit {
        case .microseconds: "\(number(value)) µs"
        case .milliseconds: "\(number(value)) ms"
        case .megabytes: "\(number(value)) MB"
        case .rows: "\(Int(value)) rows"
        case .requests: "\(Int(value)) requests"
        case .lists: "\(Int(value)) lists"
        case .times: String(format: "%.2fx", value)
        case .yesNo: value == 1 ? "yes" : "no"
        }
    }

    // Three significant digits at most: the rounds' spread makes more digits noise.
    private static func number(_ value: Double) -> String {
        switch abs(value) {
        case 100...: String(format: "%.0f", value)
        case 10..<100: String(format: "%.1f", value)
        default: String(format: "%.2f", value)
        }
    }
}
