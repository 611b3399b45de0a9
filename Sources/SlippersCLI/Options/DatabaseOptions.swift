import ArgumentParser
import Foundation

/// The `--db` option shared by every command.
struct DatabaseOptions: ParsableArguments {
    /// The file used when neither `--db` nor `SLIPPERS_DB` names one.
    static let defaultFileName = "slippers.sqlite"

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The cache file (default: $SLIPPERS_DB, else ./\(DatabaseOptions.defaultFileName)).",
            valueName: "path"))
    var path: String?

    /// The path to open: the option, else the environment, else the default file.
    func resolvedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path, !path.isEmpty { return path }
        if let path = environment["SLIPPERS_DB"], !path.isEmpty { return path }
        return Self.defaultFileName
    }
}
