import Foundation
import SlippersNetworking

/// The command this process runs, as a line to paste again with `--keep-no-store`: every argument
/// shell-quoted, the value of a credential header (`Authorization`, `X-Api-Key`…) written `…`.
enum KeepNoStoreCommand {
    /// The line for `arguments` (this process's, without the executable, by default).
    static func line(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String {
        var words = ["slippers"]
        var nextIsHeader = false
        for argument in arguments {
            if nextIsHeader {
                words.append(masked(header: argument))
                nextIsHeader = false
            } else if argument == "--header" {
                words.append(argument)
                nextIsHeader = true
            } else if argument.hasPrefix("--header=") {
                words.append("--header=" + masked(header: String(argument.dropFirst("--header=".count))))
            } else {
                words.append(argument)
            }
        }
        if !arguments.contains("--keep-no-store") { words.append("--keep-no-store") }
        return words.map(ShellWord.quoted).joined(separator: " ")
    }

    /// A `Name: value` header with its value written `…` when it is a credential.
    private static func masked(header: String) -> String {
        guard let colon = header.firstIndex(of: ":"),
            APIClient.isCredential(header: header[..<colon].trimmingCharacters(in: .whitespaces))
        else { return header }
        return header[..<colon] + ": …"
    }
}
