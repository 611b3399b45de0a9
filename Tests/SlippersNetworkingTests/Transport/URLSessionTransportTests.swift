import Foundation
import LocalAPI
import SlippersFixtures
import SlippersNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct URLSessionTransportTests {
    @Test func errorStatusesAreReturnedNotThrown() async throws {
        try await withFixtureServer { server async throws in
            server.inject(.status(418, body: "teapot"))
            let response = try await urlSessionTransport.send(URLRequest(url: server.url(.page)))
            #expect(response.statusCode == 418)
            #expect(response.body == Data("teapot".utf8))
        }
    }

    @Test func aRedirectIsReturnedWithItsLocationNotFollowed() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let response = try await urlSessionTransport.send(URLRequest(url: server.url(.redirect)))
        #expect(response.statusCode == 302)
        #expect(response.header("Location") == "/json")
        #expect(server.acceptedConnections == 1)
    }

    @Test func aRefusedConnectionIsCannotConnect() async throws {
        let server = FixtureServer()
        try await server.start()
        let url = server.url(.page)
        await server.stop()
        let error = await #expect(throws: NetworkError.self) {
            try await urlSessionTransport.send(URLRequest(url: url))
        }
        #expect(error?.kind == .transport(.cannotConnect))
    }

    @Test func aTaskCancelledBeforeSendingThrowsCancellationError() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await urlSessionTransport.send(URLRequest(url: URL(string: "http://127.0.0.1:9/")!))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

@Suite struct URLSessionUploadTests {
    @Test func aMultipartBodyIsStreamedFromItsFileToTheServer() async throws {
        try await withFixtureServer { server async throws in
            struct Upload: Encodable {
                var note: String
                var file: MultipartFile
            }
            let form = try MultipartFormEncoder().encode(
                Upload(note: "hello", file: MultipartFile(filename: "a.bin", data: Data(repeating: 1, count: 300_000))))
            let endpoint = try Endpoint(.post, "page").withMultipartBody(form)
            guard case .file(let bodyFile) = endpoint.body else {
                Issue.record("expected a file body")
                return
            }
            defer { try? FileManager.default.removeItem(at: bodyFile) }
            let response = try await client(for: server).response(for: endpoint)
            #expect(response.statusCode == 200)
            let received = try #require(server.requests.first)
            #expect(received.method == "POST")
            #expect(received.headers["Content-Type"] == form.contentType)
            #expect(received.bodyLength == (try form.data()).count)
        }
    }
}
