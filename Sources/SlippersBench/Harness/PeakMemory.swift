import Foundation

/// The process's resident set size, current and peak, as Linux reports it in `/proc/self/status`.
///
/// The peak (`VmHWM`) only grows over a process's life, so a figure that needs
/// the peak of one phase either resets it first with ``resetPeak()`` or runs
/// that phase in a child process. Resetting writes `5` to
/// `/proc/self/clear_refs`, which Linux supports since 4.0; it can be refused
/// (read-only `/proc` in some containers), so callers check the result.
enum PeakMemory {
    /// The peak resident set size since the process started or the last reset, in bytes.
    static func peakBytes() -> UInt64? { statusField("VmHWM") }

    /// The current resident set size, in bytes.
    static func residentBytes() -> UInt64? { statusField("VmRSS") }

    /// Sets the peak back to the current resident set size; `false` when the kernel refused.
    @discardableResult
    static func resetPeak() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    private static func statusField(_ name: String) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            // The line reads e.g. "VmHWM:     12345 kB".
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kilobytes = UInt64(fields[1]) else { return nil }
            return kilobytes * 1024
        }
        return nil
    }
}
