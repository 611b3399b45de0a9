import ArgumentParser
import SlippersSQLite
import SlippersStorage
import TableOutput

extension SlippersCommand {
    /// Checks the cache file's health.
    struct Doctor: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check the cache's health: integrity, schema version, orphan rows, page counts.",
            discussion: """
                Exits 0 when the cache is healthy and 1 when it is not, after printing what is \
                wrong; a list whose end was reached with fewer items than its server announced is \
                not healthy. A file that cannot be opened (not a database, damaged, written by a newer \
                Slippers) also exits 1, with one line on stderr naming the problem. The file is \
                opened read-only and never changed, unless --repair is given.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        @Flag(help: "Rebuild the full-text index of the items first (the file is opened for writing).")
        var repair = false

        func execute() async throws {
            if repair { try database.openForWriting().rebuildSearchIndex() }
            let store = try await database.openStorageForReading()
            var diagnosis = try await store.diagnose()
            diagnosis.noteIncompleteLists(try await store.lists())
            if output.json {
                print(try JSONOutput.render(diagnosis))
            } else {
                print(report(diagnosis, path: store.locationDescription))
            }
            if !diagnosis.isHealthy { throw ExitCode.failure }
        }

        private func report(_ diagnosis: Diagnosis, path: String) -> String {
            let applied = diagnosis.appliedMigrations
            let known = diagnosis.knownMigrations
            var schema = "\(applied.last ?? "none") (\(applied.count) of \(known.count) migrations applied)"
            if applied != known {
                schema += applied.count < known.count ? "; open it with a write command to migrate" : "; unexpected"
            }
            var fields: [(label: String, value: String)] = [("file", path)]
            fields += lines("integrity", diagnosis.integrity, none: "ok")
            fields.append(("schema", schema))
            fields += lines("orphans", diagnosis.orphans, none: "none")
            fields += lines("pages", diagnosis.inconsistentPages, none: "consistent")
            fields += lines(
                "lists", diagnosis.incompleteLists.map { "INCOMPLETE \($0)" }, none: "complete as announced")
            fields += lines("search", diagnosis.searchIndex, none: "the index agrees with the items")
            fields += lines("accounts", diagnosis.writesOfDerivedAccounts, none: "no write waits for a derived account")
            fields.append(("verdict", diagnosis.isHealthy ? "healthy" : "NOT healthy"))
            return TextTable.fields(fields)
        }

        /// One field per problem, the label on the first only.
        private func lines(_ label: String, _ problems: [String], none: String) -> [(label: String, value: String)] {
            let problems = problems == ["ok"] ? [] : problems
            guard !problems.isEmpty else { return [(label, none)] }
            return problems.enumerated().map { ($0.offset == 0 ? label : "", $0.element) }
        }
    }
}
