import Foundation
import Synchronization

/// A one-line progress display for a terminal, redrawn in place on standard error.
struct ProgressBar {
    /// What the line shows.
    struct Figures: Equatable {
        /// Pages fetched so far, this run and before.
        var pages: Int
        /// Items fetched so far, this run and before.
        var items: Int
        /// The list's total, when the server gave one.
        var total: Int?
        /// Items fetched per second by this run.
        var itemsPerSecond: Double
    }

    /// The width of the bar between its brackets.
    static let barWidth = 24

    /// The line for `figures`: a bar, `n/total` and an ETA when the total is known; counts and the rate always.
    static func line(_ figures: Figures) -> String {
        let rate = "\(Int(figures.itemsPerSecond.rounded())) items/s"
        guard let total = figures.total, total > 0 else {
            return "\(Formatting.count(figures.pages, "page"))  \(Formatting.count(figures.items, "item"))  \(rate)"
        }
        let done = min(figures.items, total)
        let filled = barWidth * done / total
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]"
        let eta =
            figures.itemsPerSecond > 0 && done < total
            ? "  ETA \(Formatting.age(Double(total - done) / figures.itemsPerSecond))" : ""
        return "\(bar) \(done)/\(total) items  \(Formatting.count(figures.pages, "page"))  \(rate)\(eta)"
    }

    /// Whether standard error is a terminal: the bar is drawn only then.
    static var isStandardErrorATerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private var isDrawn = false

    /// Redraws the line over the previous one.
    mutating func draw(_ figures: Figures) {
        isDrawn = true
        // \r goes back to the start of the line, ESC [K clears what the previous line left to the right.
        write("\r" + Self.line(figures) + "\u{1B}[K")
    }

    /// Ends the line, so that what follows starts on a new one.
    mutating func finish() {
        guard isDrawn else { return }
        isDrawn = false
        write("\n")
    }

    private func write(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }
}

extension ProgressBar {
    /// A bar that the events of a run, told from any task, draw one at a time.
    final class Shared: Sendable {
        private let bar = Mutex(ProgressBar())

        /// Draws the bar with `figures`.
        func draw(_ figures: Figures) {
            bar.withLock { $0.draw(figures) }
        }

        /// Ends the bar's line.
        func finish() {
            bar.withLock { $0.finish() }
        }
    }
}
