import Foundation
import LocalAPI
import SlippersKit
import SlippersTestSupport

/// A fixture server of 25 items in pages of 10, a real cache file, and a client without retries.
struct Fixture {
    let server: FixtureServer
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let client: APIClient

    init(itemCount: Int = 25, pageSize: Int = 10) async throws {
        server = FixtureServer(configuration: .init(itemCount: itemCount, pageSize: pageSize))
        try await server.start()
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
        guard let configuration = ServerConfiguration(baseURL: server.baseURL) else { throw FixtureError.noHost }
        client = APIClient(configuration: configuration, options: APIClient.Options(retryPolicy: .none))
    }

    /// The requests for the first page of `route` the server received.
    func firstPageRequests(_ route: FixtureServer.Route = .page) -> Int {
        server.requests.filter { $0.path == route.rawValue && ($0.query["page"] ?? "1") == "1" }.count
    }

    enum FixtureError: Error { case noHost }
}
