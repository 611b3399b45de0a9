import Foundation

/// Progress lines for people, on standard error, so that `--json` output on standard output stays clean.
struct Progress: Sendable {
    var isEnabled = true

    func report(_ message: String) {
        guard isEnabled else { return }
        FileHandle.standardError.write(Data(("· " + message + "\n").utf8))
    }
}
