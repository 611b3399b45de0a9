import ArgumentParser

/// The `slippers` command: inspect and operate a Slippers cache file.
@main
struct SlippersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slippers",
        abstract: "Page HTTP/JSON APIs into an SQLite cache, then inspect and operate the cache.",
        discussion: """
            Every command works on one cache file, chosen with --db, else the SLIPPERS_DB \
            environment variable, else ./slippers.sqlite. Inspection commands print aligned \
            tables, or stable JSON with --json.
            """,
        version: "0.1.0",
        subcommands: [Demo.self]
    )
}
