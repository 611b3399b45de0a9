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
