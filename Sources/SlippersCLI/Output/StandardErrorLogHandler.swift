import Foundation
import Logging

/// Writes log events to stderr, one line each: `slippers: level: message key=value …`.
///
/// What `--verbose` shows. The libraries redact credentials before they log,
/// so a line never holds a token, a cookie or a secret query value.
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(level: Logger.Level) {
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line = Self.line(event, merging: metadata)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The line for one event: its level, its message, then its metadata sorted by key.
    static func line(_ event: LogEvent, merging base: Logger.Metadata = [:]) -> String {
        let all = base.merging(event.metadata ?? [:]) { _, event in event }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return (["slippers: \(event.level): \(event.message)"] + fields).joined(separator: " ")
    }
}
