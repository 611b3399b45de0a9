/// One line of the report: a measured value, what it is compared with, and whether it meets its target.
///
/// For example, the floor baseline's page read against the fastest baseline:
///
/// ```swift
/// Figure(
///     name: "baseline: read page (a)", unit: .microseconds, value: 512,
///     baseline: "fastest baseline", baselineValue: 498, target: .information)
/// ```
///
/// Encoded, a figure has exactly the keys of the report schema:
/// `name`, `unit`, `value`, `baseline`, `baseline_value`, `ratio`, `target`, `met`.
/// `met` is `null` for information figures, which have no target.
struct Figure: Sendable {
    /// Units as written in the JSON report, short and ASCII so scripts can match them.
    enum Unit: String, Sendable, Encodable {
        case microseconds = "us"
        case milliseconds = "ms"
        case megabytes = "MB"
        case rows
        case requests
        case times = "x"
        case yesNo = "bool"
        case lists
    }

    var name: String
    var unit: Unit
    var value: Double
    /// What the value is compared with, e.g. `"(c) SQLite row per page"`; `nil` when nothing.
    var baseline: String?
    var baselineValue: Double?
    var target: Target
    /// The 10th to 90th percentile of the value, for the table; not part of the JSON schema.
    var spread: ClosedRange<Double>? = nil

    /// `value / baselineValue`, or `nil` without a baseline.
    var ratio: Double? {
        guard let baselineValue, baselineValue != 0 else { return nil }
        return value / baselineValue
    }

    var targetText: String { target.text(baseline: baseline, unit: unit.rawValue) }

    var isMet: Bool? { target.isMet(value: value, ratio: ratio) }
}

extension Figure: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, unit, value, baseline, ratio, target, met
        case baselineValue = "baseline_value"
    }

    /// Encodes every key, `null` included, so a script finds the same keys on every figure.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(unit, forKey: .unit)
        try container.encode(value, forKey: .value)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(baselineValue, forKey: .baselineValue)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(targetText, forKey: .target)
        try container.encode(isMet, forKey: .met)
    }
}
