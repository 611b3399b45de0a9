import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// A credential in the list's query reaches the server on every page and never the cache file.
@Suite struct CredentialsInCacheTests {
    static let secret = "s3cret-value-42"

    /// A list whose next URLs copy the query of the request, credential included, as Django REST Framework's do.
    private static func serveEchoingList(on server: FixtureServer, pages: Int) {
        server.script("/private") { request in
            let page = Int(request.query["page"] ?? "1") ?? 1
            let token = request.query["access_token"] ?? ""
            let items = (1...10).map { "{\"id\": \(($0) + (page - 1) * 10)}" }.joined(separator: ",")
            let next =
                page < pages
                ? "\"http://127.0.0.1:\(server.port)/private?access_token=\(token)&page=\(page + 1)&sort_key=name\""
                : "null"
            return .json("{\"results\": [\(items)], \"next\": \(next)}")
        }
    }

    /// A running server with the list, a cache in a new directory, and a source of the list with the credential.
    private static func list(
        query: String = ""
    ) async throws -> (FixtureServer, TemporaryDirectory, SQLiteCache, HTTPPageSource) {
        let server = FixtureServer()
        try await server.start()
        serveEchoingList(on: server, pages: 3)
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        let configuration = try #require(ServerConfiguration(baseURL: server.baseURL))
        let client = APIClient(configuration: configuration, options: APIClient.Options(retryPolicy: .none))
        let url = try #require(URL(string: "\(server.baseURL)/private?access_token=\(secret)\(query)"))
        return (server, directory, store, HTTPPageSource(client: client, url: url, style: .nextURL()))
    }

    @Test func aQueryCredentialIsSentOnEveryPageAndKeptNowhereInTheFile() async throws {
        let (server, directory, store, source) = try await Self.list(query: "&sort_key=name")
        let list = ListDescriptor(key: source.listKey, itemType: "Item")

        let outcome = try await ListSync(storage: store, source: source, list: list).run()
        await server.stop()

        #expect(outcome.endReached && outcome.itemsFetched == 30)
        let sent = server.requests.filter { $0.path == "/private" }
        #expect(sent.count == 3)
        #expect(sent.allSatisfy { $0.query["access_token"] == Self.secret })
        #expect(source.listKey.contains("access_token=***"))
        #expect(source.listKey.contains("sort_key=name"))
        #expect(try directory.filesHolding(Self.secret).isEmpty)
    }

    @Test func aPageThatVariesOnTheCredentialIsStoredWithAFingerprintKeyedPerFile() async throws {
        let server = FixtureServer()
        try await server.start()
        server.script("/mine") { _ in
            .json(#"{"results": [{"id": 1}], "next": null}"#, headers: ["Vary": "Authorization"])
        }
        let configuration = try #require(ServerConfiguration(baseURL: server.baseURL))
        let client = APIClient(configuration: configuration, options: APIClient.Options(retryPolicy: .none))
        let url = try #require(URL(string: "\(server.baseURL)/mine"))
        let source = HTTPPageSource(
            client: client, url: url, style: .nextURL(), headers: ["Authorization": "Bearer \(Self.secret)"])
        let list = ListDescriptor(key: source.listKey, itemType: "Item")
        var stored: [String] = []
        var directories: [TemporaryDirectory] = []
        for _ in 0..<2 {
            let directory = try TemporaryDirectory()
            let store = try SQLiteCache(path: directory.path())
            _ = try await ListSync(storage: store, source: source, list: list).run()
            stored.append(try #require(try store.pages(in: list.key).first?.varyKey))
            #expect(try directory.filesHolding(Self.secret).isEmpty)
            directories.append(directory)
        }
        await server.stop()

        let digest = try #require(source.varyKey(for: ["authorization"]))
        #expect(stored.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        #expect(stored[0] != stored[1], "each file keys its fingerprints with a key of its own")
        #expect(!stored.contains(digest), "the source's digest is never stored as it is")
    }

    @Test func aKeptNextURLResumesWithTheCredentialOfTheListURL() async throws {
        let (server, directory, store, source) = try await Self.list()
        defer { withExtendedLifetime(directory) {} }
        let list = ListDescriptor(key: source.listKey, itemType: "Item")

        try await ListSync(storage: store, source: source, list: list).run(maxPages: 1)
        let resumed = HTTPPageSource(client: source.client, url: source.url, style: .nextURL())
        let outcome = try await ListSync(storage: store, source: resumed, list: list).run()
        await server.stop()

        #expect(outcome.resumed && outcome.endReached)
        #expect(server.requests.filter { $0.path == "/private" }.allSatisfy { $0.query["access_token"] == Self.secret })
        #expect(HTTPPageSource.isCredentialParameter("api_key") && HTTPPageSource.isCredentialParameter("page_token"))
        #expect(!HTTPPageSource.isCredentialParameter("sort_key") && !HTTPPageSource.isCredentialParameter("page"))
    }
}
