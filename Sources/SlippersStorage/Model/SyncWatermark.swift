import Foundation

/// Where an incremental sync of a list stands: the greatest value of its field seen by the last
/// run that completed, and the value sent by a run under way.
///
/// ``IncrementalSync`` keeps one per list. ``value`` moves only when a run completes; a run
/// killed midway leaves ``pendingSince`` set, and the next run asks again from it, so no change in
/// the window is lost.
public struct SyncWatermark: Hashable, Sendable {
    /// The key path of the item member the watermark is taken from, such as `updated_at`.
    public var field: String
    /// The greatest value of ``field`` among the list's items when the last run completed; `nil`
    /// before any run completed.
    public var value: String?
    /// The value a run under way sends (the watermark less the lookback, or the initial value),
    /// until it completes; `nil` when no run is under way.
    public var pendingSince: String?

    /// Creates a watermark.
    public init(field: String, value: String? = nil, pendingSince: String? = nil) {
        self.field = field
        self.value = value
        self.pendingSince = pendingSince
    }
}

extension SyncWatermark {
    /// The greater of two values of a field: as dates when both are ISO 8601 dates, as numbers
    /// when both are numbers, as text otherwise.
    ///
    /// For example, `"2026-01-02T00:00:00Z"` is greater than `"2026-01-01T23:59:59.999+00:00"`,
    /// and `"10"` greater than `"9"`.
    package static func greater(_ first: String, _ second: String) -> String {
        switch (Reading(first), Reading(second)) {
        case (.date(let a), .date(let b)): a >= b ? first : second
        case (.number(let a), .number(let b)): a >= b ? first : second
        default: first >= second ? first : second
        }
    }

    /// A value of a field moved back by `lookback`: a date less the duration, in UTC, with
    /// milliseconds when the value had a fraction; a number less the duration's seconds; text as it is.
    ///
    /// For example, `"2026-01-01T00:05:00Z"` less 5 minutes is `"2026-01-01T00:00:00Z"`.
    package static func lowering(_ value: String, by lookback: Duration) -> String {
        let seconds = Double(lookback.components.seconds) + Double(lookback.components.attoseconds) / 1e18
        guard seconds > 0 else { return value }
        switch Reading(value) {
        case .date(let date):
            let hasFraction = value.contains(".")
            let style = Date.ISO8601FormatStyle(includingFractionalSeconds: hasFraction, timeZone: .gmt)
            return date.addingTimeInterval(-seconds).formatted(style)
        case .number(let number):
            let lowered = number - seconds
            if lowered.rounded() == lowered, abs(lowered) < 1e15 { return String(Int64(lowered)) }
            return String(lowered)
        case .text:
            return value
        }
    }

    /// How a field's value is compared.
    private enum Reading {
        case date(Date)
        case number(Double)
        case text

        init(_ value: String) {
            if let number = Double(value), number.isFinite, !value.contains(where: \.isLetter) {
                self = .number(number)
            } else if let date = Self.date(value) {
                self = .date(date)
            } else {
                self = .text
            }
        }

        private static func date(_ text: String) -> Date? {
            guard text.count >= 20, text.contains("T") else { return nil }
            if let date = try? Date(text, strategy: .iso8601) { return date }
            return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
    }
}
