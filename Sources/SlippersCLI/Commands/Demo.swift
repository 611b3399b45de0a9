import ArgumentParser
import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersSQLite

extension SlippersCommand {
    /// Runs the whole story on an embedded local API.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Run the whole story on an embedded local API: no network, no setup.",
            discussion: """
                Starts a paginated JSON API on 127.0.0.1 (a free port), syncs it into a fresh cache, \
                reads it again from the cache, takes the server offline, resumes a stopped sync and \
                refreshes a list that changed, then prints what happened. The cache goes to a \
                temporary directory, removed at the end, unless --db names a new file to keep.
                """)

        @Option(
            name: .customLong("db"),
            help: ArgumentHelp("A new cache file to keep (default: a temporary one).", valueName: "path"))
        var path: String?

        func validate() throws {
            if let path, FileManager.default.fileExists(atPath: path) {
                throw ValidationError("The demo writes a new cache; \(path) exists already.")
            }
        }

        func run() async throws {
            try await ErrorReport.reportingAsync {
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("slippers-demo-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                let server = FixtureServer(configuration: .init(itemCount: 500, pageSize: 50))
                try await server.start()
                do {
                    try await DemoStory(
                        server: server, path: path ?? directory.appendingPathComponent("demo.sqlite").path,
                        keepsFile: path != nil
                    ).tell()
                } catch {
                    await server.stop()
                    throw error
                }
                await server.stop()
            }
        }
    }
}
