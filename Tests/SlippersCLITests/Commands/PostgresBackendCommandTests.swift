import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// Every command on both backends: the same list synced into a file and into a PostgreSQL
/// database the test starts prints the same tables and JSON, once the location, the ages and
/// the sizes (which differ by nature) are set aside.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(4)))
struct PostgresBackendCommandTests {
    /// A command's output with what differs between backends by nature replaced by placeholders.
    static func normalized(_ text: String, locations: [String]) -> String {
        var text = text
        for location in locations { text = text.replacingOccurrences(of: location, with: "<db>") }
        let patterns: [(String, String)] = [
            // Dates and ages: two runs a moment apart.
            (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, "<date>"),
            (#"(?<![\w.])\d+(\.\d+)?(ms|s|m|h|d|w)(?![\w])"#, "<age>"),
            // Sizes on disk and the schema's migrations are each backend's own.
            (#"\d+(\.\d+)? (B|KiB|MiB|GiB)"#, "<size>"),
            (#""(fileSize|file_size)"\s*:\s*\d+"#, "\"$1\": <size>"),
            (#"\d{4}_[a-z_]+( \(\d+ of \d+ migrations applied\))?"#, "<schema>"),
            (#"\[\s*("<schema>"\s*,?\s*)+\]"#, "[<schemas>]"),
            (#""updated_at"\s*:\s*"[^"]*""#, "\"updated_at\": <date>"),
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        // Columns are as wide as their widest cell, which an age of one more digit widens.
        return text.replacingOccurrences(of: " +", with: " ", options: .regularExpression)
    }

    @Test func everyCommandPrintsTheSameOnAFileAndOnPostgreSQL() async throws {
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: 130, pageSize: 25) { fixture in
                let directory = try TemporaryDirectory()
                let file = directory.path()
                let database = try await server.makeDatabase()
                let url = server.url(database: database)
                let masked =
                    url.replacingOccurrences(of: ":" + PostgresServer.password + "@", with: ":***@")
                    + "?schema=slippers"
                let list = fixture.url()
                let backends = [["--db", file], ["--db", url]]
                let locations = [file, masked]
                // Each phase's commands run on both backends against the same server; the server
                // changes between phases.
                let phases: [(change: @Sendable () -> Void, commands: [[String]])] = [
                    (
                        {},
                        [
                            ["sync", list],
                            ["sync", list],
                            ["lists"], ["lists", "--json"],
                            ["pages", list], ["pages", list, "--json"],
                            ["items", list], ["items", list, "--json"], ["items", list, "--page", "2"],
                            ["get", "page", "7"], ["get", "page", "7", "--json"],
                            ["export", list], ["export", list, "--format", "ndjson"],
                            ["export", list, "--format", "csv"],
                            ["stats"], ["stats", "--json"],
                            ["doctor"], ["doctor", "--json"],
                        ]
                    ),
                    (
                        // New items at the top, one gone, one changed: a refresh starts a new generation.
                        {
                            fixture.server.insertAtTop(count: 30)
                            _ = fixture.server.remove(id: 40)
                            _ = fixture.server.update(id: 41, title: "changed")
                        },
                        [
                            ["sync", list, "--refresh", "--max-pages", "2"],
                            ["lists", "--json"], ["pages", list, "--json"], ["items", list, "--json"],
                            ["sync", list],
                            ["lists", "--json"], ["pages", list, "--json"], ["items", list, "--json"],
                            ["get", "page", "41", "--json"],
                        ]
                    ),
                    (
                        // Shorter: a refresh that ends earlier removes the pages past the new end.
                        { for id in 1...60 { _ = fixture.server.remove(id: id) } },
                        [
                            ["sync", list, "--refresh"],
                            ["lists", "--json"], ["pages", list, "--json"],
                            ["export", list, "--format", "ndjson"],
                            ["stats", "--json"],
                            ["invalidate", list], ["lists"], ["pages", list, "--json"],
                            ["evict", "--unreferenced"], ["evict", "--list", list, "--json"], ["lists"],
                            ["items", list], ["evict", "--older-than", "1d"], ["vacuum"],
                        ]
                    ),
                ]
                for phase in phases {
                    phase.change()
                    for command in phase.commands {
                        var outputs: [String] = []
                        for backend in backends {
                            let outcome = try await BuiltBinary.slippers.run(command + backend)
                            outputs.append(
                                "\(outcome.status)\n"
                                    + Self.normalized(outcome.stdout + outcome.stderr, locations: locations))
                        }
                        #expect(outputs[0] == outputs[1], "slippers \(command.joined(separator: " "))")
                        #expect(!outputs[1].contains(PostgresServer.password))
                    }
                }
                withExtendedLifetime(directory) {}
            }
        }
    }
}
