import ArgumentParser

/// The `--json` flag shared by the inspection commands.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print stable, machine-readable JSON instead of a table.")
    var json = false
}
