import Foundation

extension Duration {
    /// The duration in microseconds, as a floating-point number.
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }

    /// The duration in milliseconds, as a floating-point number.
    var milliseconds: Double { microseconds / 1e3 }

    /// The duration in seconds with two decimals, for progress lines, e.g. `"1.25 s"`.
    var secondsText: String { String(format: "%.2f s", microseconds / 1e6) }
}
