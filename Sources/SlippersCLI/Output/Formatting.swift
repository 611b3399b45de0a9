import Foundation

/// Human-readable renderings of sizes, ages and dates.
enum Formatting {
    /// A byte count as `512 B`, `1.5 KiB`, `12.0 MiB`.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// An age as `42s`, `5m`, `3h`, `2d`.
    static func age(_ seconds: TimeInterval) -> String {
        let seconds = max(0, Int(seconds))
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        default: return "\(seconds / 86_400)d"
        }
    }

    /// The age of `date` at `now`, or `-` when there is no date.
    static func age(of date: Date?, now: Date = Date()) -> String {
        guard let date else { return "-" }
        return age(now.timeIntervalSince(date))
    }

    /// A date as ISO 8601 text, or `-`.
    static func date(_ date: Date?) -> String {
        guard let date else { return "-" }
        return date.formatted(.iso8601)
    }
}

extension Formatting {
    /// `text` cut to `width` characters, ending with `…` when it was longer.
    static func truncated(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    /// The start of an item's JSON on one line, for a table cell.
    static func preview(_ json: Data, width: Int = 60) -> String {
        let text = String(decoding: json.prefix(width * 4), as: UTF8.self)
            .map { $0.isNewline ? " " : $0 }
        return truncated(String(text), to: width)
    }

    /// `yes` or `no`.
    static func yesNo(_ value: Bool) -> String {
        value ? "yes" : "no"
    }

    /// An optional number, or `-`.
    static func number(_ value: Int?) -> String {
        value.map(String.init) ?? "-"
    }

    /// `count` and a noun, plural unless the count is one: `1 page`, `3 pages`.
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
