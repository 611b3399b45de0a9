import Foundation
import LocalAPI

/// A fixture API started for one test; stopped by ``stop()``.
struct RunningFixture {
    let server: FixtureServer

    /// Starts a server of `itemCount` items, `pageSize` a page.
    static func start(
        itemCount: Int = 230, pageSize: Int = 50, itemsKeyPath: String? = "results", bearerToken: String? = nil
    ) async throws -> RunningFixture {
        let server = FixtureServer(
            configuration: .init(
                itemCount: itemCount, pageSize: pageSize, itemsKeyPath: itemsKeyPath, requiredBearerToken: bearerToken))
        try await server.start()
        return RunningFixture(server: server)
    }

    /// The URL of a route as text, for the command line: with the route's first-page query
    /// (`FixtureServer.Route.firstPageQuery`) under `query`.
    func url(_ route: FixtureServer.Route = .page, query: [String: String] = [:]) -> String {
        server.url(route, query: route.firstPageQuery.merging(query) { _, given in given }).absoluteString
    }

    func stop() async {
        await server.stop()
    }

    /// Runs `body` with a started server, and stops the server after it, whatever happens.
    static func with(
        itemCount: Int = 230, pageSize: Int = 50, itemsKeyPath: String? = "results", bearerToken: String? = nil,
        _ body: (RunningFixture) async throws -> Void
    ) async throws {
        let fixture = try await start(
            itemCount: itemCount, pageSize: pageSize, itemsKeyPath: itemsKeyPath, bearerToken: bearerToken)
        do {
            try await body(fixture)
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
    }
}

/// The integer ids of an NDJSON export, in order.
func exportedIDs(_ ndjson: String) throws -> [Int] {
    try ndjson.split(separator: "\n").map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["id"] as? Int ?? -1
    }
}
