import ArgumentParser
import Logging

/// The `--verbose` flag, given before or after the command's name.
///
/// The root command and every command that logs declare this group; a
/// command reads the value parsed for the root, so `slippers --verbose sync …`
/// and `slippers sync --verbose …` are the same.
struct LoggingOptions: ParsableArguments {
    @Flag(help: "Log the HTTP exchanges, retries, redirects, revalidations and evictions on stderr.")
    var verbose = false

    /// The logger the command hands to the libraries: stderr at `debug` with `--verbose`, else ``silent``.
    var logger: Logger {
        verbose ? Logger(label: "slippers", factory: { _ in StandardErrorLogHandler(level: .debug) }) : Self.silent
    }

    /// A logger that discards everything, for the commands that do not take `--verbose`.
    static let silent = Logger(label: "slippers", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The options without `--verbose`, for a command built from values rather than parsed.
    static var quiet: LoggingOptions {
        var options = LoggingOptions()
        options.verbose = false
        return options
    }
}
