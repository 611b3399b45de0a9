import SlippersNetworking

extension PaginationStyle {
    /// The `sync` options that give this style instead of detecting it, shell-quoted where needed:
    /// what `detect` prints, so that a script can pin what was found.
    var commandLineFlags: [String] {
        commandLineOptions.map { "\($0.name) \(ShellWord.quoted($0.value))" }
    }
}
