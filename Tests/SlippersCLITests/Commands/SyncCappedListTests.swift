import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// Offset lists whose server caps the page size and refuses a larger `limit`: the look-behind's
/// wider request is refused once, the list is read in plain pages, and the next run remembers it.
@Suite struct SyncCappedListTests {
    /// A server that refuses `limit + 1` with `400` ("limit cannot be higher than 20"), and one
    /// that answers `422` to `limit=101` as FastAPI's `Query(100, le=100)` does.
    static let caps: [(status: Int, cap: Int)] = [(400, 20), (422, 100)]

    @Test(arguments: caps)
    func aListWhoseServerRefusesALargerLimitSyncsExactly(status: Int, cap: Int) async throws {
        var configuration = FixtureServer.Configuration(itemCount: 1_234, pageSize: cap)
        configuration.maxLimit = cap
        configuration.refusedLimitStatus = status
        try await serving(configuration) { server in
            let directory = try TemporaryDirectory()
            let url = server.url(.offset).absoluteString
            let result = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(result.status == 0, "\(status): \(result.stderr)")
            #expect(result.stdout.contains("synced 1234 items"), "\(status): \(result.stdout)")
            let refused = server.requests.filter { Int($0.query["limit"] ?? "") ?? 0 > cap }
            #expect(refused.count == 1, "\(status): \(server.requests.map(\.query))")
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...1_234))

            // The cap is recorded with the list's style: the next run asks no wider page.
            server.resetRequests()
            let again = try await BuiltBinary.slippers.run(["sync", url, "--refresh", "--db", directory.path()])
            #expect(again.status == 0, "\(status): \(again.stderr)")
            #expect(again.stdout.contains("synced 1234 items"), "\(status): \(again.stdout)")
            #expect(
                server.requests.allSatisfy { Int($0.query["limit"] ?? "") ?? 0 <= cap },
                "\(server.requests.map(\.query))")
        }
    }

    @Test func aCappedListReadSeveralPagesAtOnceMissesNoItem() async throws {
        var configuration = FixtureServer.Configuration(itemCount: 500, pageSize: 20)
        configuration.maxLimit = 20
        configuration.refusedLimitStatus = 400
        try await serving(configuration) { server in
            let directory = try TemporaryDirectory()
            let url = server.url(.offset).absoluteString
            let result = try await BuiltBinary.slippers.run([
                "sync", url, "--concurrency", "4", "--db", directory.path(),
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...500))
        }
    }

    @Test func anNDJSONExportOfAPrettyPrintingServerHasOneObjectALine() async throws {
        var configuration = FixtureServer.Configuration(itemCount: 45, pageSize: 20)
        configuration.prettyPrinted = true
        try await serving(configuration) { server in
            let directory = try TemporaryDirectory()
            let url = server.url(.page).absoluteString
            let result = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(result.status == 0, "\(result.stderr)")
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(export.stdout.split(separator: "\n").count == 45)
            #expect(try exportedIDs(export.stdout) == Array(1...45))
        }
    }

    /// Runs `body` with a started server of `configuration`, and stops the server after it.
    private func serving(
        _ configuration: FixtureServer.Configuration, _ body: (FixtureServer) async throws -> Void
    ) async throws {
        let server = FixtureServer(configuration: configuration)
        try await server.start()
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
