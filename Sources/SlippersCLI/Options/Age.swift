import ArgumentParser
import Foundation

/// A duration given on the command line as a number and a unit: `90s`, `30m`, `12h`, `7d`, `2w`.
struct Age: ExpressibleByArgument, Equatable {
    /// The duration in seconds.
    var seconds: TimeInterval

    init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    init?(argument: String) {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = argument.last, let scale = units[unit],
            let value = Int(argument.dropLast()), value >= 0
        else { return nil }
        self.seconds = TimeInterval(value) * scale
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
