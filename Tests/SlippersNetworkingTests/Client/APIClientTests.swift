import Foundation
import Slippers
import SlippersNetworking
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct APIClientTests {
    private struct Post: Codable, Sendable, Equatable {
        var id: ID<Post>
        var title: String
    }

    private func client(_ transport: ScriptedTransport, retry: RetryPolicy = quickRetries) -> APIClient {
        APIClient(
            configuration: ServerConfiguration(host: "api.test", apiRoute: "v1"),
            options: APIClient.Options(transport: transport, retryPolicy: retry))
    }

    @Test func aResourceIsLoadedAndParsed() async throws {
        let transport = ScriptedTransport(.json(#"{"id": 4, "title": "Hi"}"#))
        let post = try await client(transport).load(Resource<Post>(json: Endpoint(.get, "posts/4")))
        #expect(post == Post(id: 4, title: "Hi"))
        #expect(transport.requests.first?.url?.absoluteString == "https://api.test/v1/posts/4")
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func aParseFailureIsADecodingErrorWithTheCodingPath() async throws {
        let transport = ScriptedTransport(.json(#"{"id": 4, "title": 12}"#))
        let error = await #expect(throws: NetworkError.self) {
            try await client(transport).load(Resource<Post>(json: Endpoint(.get, "posts/4")))
        }
        guard case .decoding(let path, _, let snippet) = error?.kind else {
            Issue.record("expected a decoding error, got \(String(describing: error))")
            return
        }
        #expect(path == "title")
        #expect(snippet == #"{"id": 4, "title": 12}"#)
    }

    @Test func transientFailuresAreRetriedWithBackoffThroughTheInjectedSleep() async throws {
        let transport = ScriptedTransport([
            .failure(NetworkError(.transport(.connectionLost))), .success(StubResponse(statusCode: 502)),
            .success(.json("[]")),
        ])
        let recorder = SleepRecorder()
        var client = client(transport, retry: RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), jitter: 0))
        client.sleep = recorder.sleep
        _ = try await client.load(Resource(data: Endpoint(.get, "x")))
        #expect(transport.requests.count == 3)
        #expect(recorder.recorded == [.seconds(1), .seconds(2)])
    }

    @Test func cancellationDuringTheBackoffStopsRetryingAtOnce() async throws {
        let transport = ScriptedTransport(StubResponse(statusCode: 503))
        let client = client(transport, retry: RetryPolicy(maxAttempts: 5, baseDelay: .seconds(600), jitter: 0))
        let task = Task { try await client.load(Resource(data: Endpoint(.get, "x"))) }
        while transport.requests.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.count == 1)
    }

    @Test func a304IsAnAnswerNotAnError() async throws {
        let transport = ScriptedTransport(StubResponse(statusCode: 304))
        let response = try await client(transport).response(for: Endpoint(.get, "x"))
        #expect(response.statusCode == 304)
    }

    @Test func theAuthenticatorDecoratesEveryRequest() async throws {
        let transport = ScriptedTransport(.json("{}"))
        var client = client(transport)
        client.authenticator = BearerTokenAuthenticator(token: "t0") { "t1" }
        _ = try await client.response(for: Endpoint(.get, "me"))
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer t0")
    }

    @Test func aFailedRefreshFailsTheRequestWithItsError() async throws {
        struct RefreshFailed: Error {}
        let transport = ScriptedTransport(StubResponse(statusCode: 401))
        var client = client(transport)
        client.authenticator = BearerTokenAuthenticator(token: "t0") { throw RefreshFailed() }
        await #expect(throws: RefreshFailed.self) { try await client.response(for: Endpoint(.get, "me")) }
        #expect(transport.requests.count == 1)
    }
}

@Suite struct APIClientStreamingTests {
    @Test func aFileBodyIsSentWholeOnEveryAttempt() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID().uuidString).bin")
        try Data(repeating: 7, count: 200_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let lengths = Mutex<[Int]>([])
        let transport = StubTransport { request in
            var length = 0
            if let stream = request.httpBodyStream {
                stream.open()
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while case let read = stream.read(&buffer, maxLength: buffer.count), read > 0 { length += read }
                stream.close()
            }
            let attempt = lengths.withLock { lengths in
                lengths.append(length)
                return lengths.count
            }
            return StubResponse(statusCode: attempt == 1 ? 503 : 200)
        }
        let client = APIClient(
            configuration: ServerConfiguration(host: "api.test"),
            options: APIClient.Options(transport: transport, retryPolicy: quickRetries))
        _ = try await client.response(for: Endpoint(.put, "files/1", body: .file(file)))
        #expect(lengths.withLock { $0 } == [200_000, 200_000])
    }

    @Test func aPreparedRequestWithAStreamIsNotRetried() async throws {
        let transport = ScriptedTransport(StubResponse(statusCode: 503))
        let client = APIClient(
            configuration: ServerConfiguration(host: "api.test"),
            options: APIClient.Options(transport: transport, retryPolicy: quickRetries))
        var request = URLRequest(url: URL(string: "https://api.test/files/1")!)
        request.httpBodyStream = InputStream(data: Data([1, 2, 3]))
        await #expect(throws: NetworkError.self) { try await client.send(request) }
        #expect(transport.requests.count == 1)
    }
}
