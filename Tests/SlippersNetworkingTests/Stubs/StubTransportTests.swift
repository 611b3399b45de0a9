import Foundation
import SlippersNetworking
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct StubTransportTests {
    @Test func theDocumentedExampleFailsTwiceThenSucceeds() async throws {
        let attempts = Mutex(0)
        let transport = StubTransport { _ in
            let attempt = attempts.withLock {
                $0 += 1
                return $0
            }
            return attempt <= 2 ? .json(#"{"error": "busy"}"#, statusCode: 503) : .json("[]")
        }
        let configuration = try #require(ServerConfiguration(baseURL: URL(string: "https://api.example.com")!))
        let client = APIClient(configuration: configuration, options: .init(transport: transport, sleep: { _ in }))
        let response = try await client.send(URLRequest(url: URL(string: "https://api.example.com/posts")!))
        #expect(response.statusCode == 200)
        #expect(response.body == Data("[]".utf8))
        #expect(attempts.withLock { $0 } == 3)
    }

    @Test func theStubbedStatusHeadersAndBodyAreReturned() async throws {
        let stub = StubResponse.json(#"{"ok": true}"#, statusCode: 201, headers: ["ETag": "\"1\""])
        let response = try await StubTransport(stub).send(URLRequest(url: URL(string: "https://x.test/a")!))
        #expect(response.statusCode == 201)
        #expect(response.header("etag") == "\"1\"")
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.body == Data(#"{"ok": true}"#.utf8))
        #expect(response.url?.absoluteString == "https://x.test/a")
    }

    @Test func aStubsDelayEndsEarlyWhenTheTaskIsCancelled() async throws {
        let transport = StubTransport(StubResponse(delay: .seconds(600)))
        let task = Task { try await transport.send(URLRequest(url: URL(string: "https://x.test/a")!)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func anEndpointStubIsUsedOnlyWhenStubbingIsOn() async throws {
        let live = StubTransport(.json(#""live""#))
        let endpoint = Endpoint(.get, "a").stubbed(.json(#""stub""#))
        let configuration = ServerConfiguration(host: "x.test")
        let client = APIClient(configuration: configuration, options: APIClient.Options(transport: live))
        #expect(try await client.load(Resource(data: endpoint)) == Data(#""live""#.utf8))
        var stubbing = client
        stubbing.configuration = configuration.stubbing()
        #expect(try await stubbing.load(Resource(data: endpoint)) == Data(#""stub""#.utf8))
        let error = await #expect(throws: NetworkError.self) {
            try await stubbing.load(Resource(data: Endpoint(.get, "b")))
        }
        #expect(error?.kind == .missingStub(path: "b"))
    }
}
