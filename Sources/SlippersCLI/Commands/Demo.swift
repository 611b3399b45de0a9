import ArgumentParser

extension SlippersCommand {
    /// Runs the whole story on an embedded local API.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the whole story on an embedded local API: no network, no setup.")

        func run() async throws {
            print("slippers demo: not built yet (the CLI issue lands it).")
        }
    }
}
