import Foundation
import LocalAPI
import SlippersFixtures
import SlippersNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The async-http-client transport against the fixture API: what a well-behaved server gets.
@Suite struct AsyncHTTPClientTransportTests {
    private let transport = AsyncHTTPClientTransport(configuration: .init(idleTimeout: .seconds(20)))

    @Test func aPageComesBackWithItsStatusHeadersAndBody() async throws {
        try await withFixtureServer { server async throws in
            let response = try await transport.send(URLRequest(url: server.url(.link, query: ["page": "1"])))
            #expect(response.statusCode == 200)
            #expect(response.header("content-type") == "application/json")
            #expect(response.header("Link")?.contains(#"rel="next""#) == true)
            #expect(response.url == server.url(.link, query: ["page": "1"]))
            let items = try JSONSerialization.jsonObject(with: response.body) as? [Any]
            #expect(items?.count == 20)
        }
    }

    @Test func errorStatusesAreReturnedNotThrown() async throws {
        try await withFixtureServer { server async throws in
            server.inject(.status(503, headers: ["Retry-After": "3"], body: "down"))
            let response = try await transport.send(URLRequest(url: server.url(.page)))
            #expect(response.statusCode == 503)
            #expect(response.retryAfter == .seconds(3))
            #expect(response.body == Data("down".utf8))
        }
    }

    @Test func aMatchingETagIsAnsweredNotModified() async throws {
        try await withFixtureServer { server async throws in
            let first = try await transport.send(URLRequest(url: server.url(.page)))
            let etag = try #require(first.header("ETag"))
            var conditional = URLRequest(url: server.url(.page))
            conditional.setValue(etag, forHTTPHeaderField: "If-None-Match")
            let second = try await transport.send(conditional)
            #expect(second.statusCode == 304)
            #expect(second.body.isEmpty)
            #expect(server.requests.last?.headers["If-None-Match"] == etag)
        }
    }

    @Test func headersAndBodyOfTheRequestReachTheServer() async throws {
        try await withFixtureServer { server async throws in
            var request = URLRequest(url: server.url(.page))
            request.httpMethod = "POST"
            request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(repeating: 7, count: 1234)
            _ = try await transport.send(request)
            let received = try #require(server.requests.first)
            #expect(received.method == "POST")
            #expect(received.headers["Authorization"] == "Bearer abc")
            #expect(received.bodyLength == 1234)
        }
    }

    @Test func aBodyStreamedFromAFileReachesTheServerWhole() async throws {
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
            let client = APIClient(
                configuration: try #require(ServerConfiguration(baseURL: server.baseURL)),
                options: APIClient.Options(transport: transport))
            let response = try await client.response(for: endpoint)
            #expect(response.statusCode == 200)
            let received = try #require(server.requests.first)
            #expect(received.headers["Content-Type"] == form.contentType)
            #expect(received.bodyLength == (try form.data()).count)
        }
    }

    @Test func aRedirectIsReturnedWithItsLocationNotFollowed() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let response = try await transport.send(URLRequest(url: server.url(.redirect)))
        #expect(response.statusCode == 302)
        #expect(response.header("Location") == "/json")
        #expect(server.acceptedConnections == 1)
    }

    @Test func aRefusedConnectionIsCannotConnect() async throws {
        let server = FixtureServer()
        try await server.start()
        let url = server.url(.page)
        await server.stop()
        let error = await #expect(throws: NetworkError.self) { try await transport.send(URLRequest(url: url)) }
        #expect(error?.kind == .transport(.cannotConnect))
    }

    @Test func cancellingTheCallerEndsAWaitingRequestWithCancellationError() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let slow = AsyncHTTPClientTransport(configuration: .init(idleTimeout: .seconds(60), deadline: .seconds(60)))
        let task = Task { try await slow.send(URLRequest(url: server.url(.silent))) }
        while server.acceptedConnections == 0 { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aTaskCancelledBeforeSendingThrowsCancellationError() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(URLRequest(url: URL(string: "http://127.0.0.1:9/")!))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func aDroppedTransportShutsItsClientDownQuietly() async throws {
        try await withFixtureServer { server async throws in
            var transport: AsyncHTTPClientTransport? = AsyncHTTPClientTransport()
            #expect(try await transport?.send(URLRequest(url: server.url(.page))).statusCode == 200)
            transport = nil
        }
    }

    @Test func theDefaultsAreDocumentedOnes() {
        let defaults = AsyncHTTPClientTransport.Configuration.default
        #expect(defaults.connectTimeout == .seconds(10))
        #expect(defaults.idleTimeout == .seconds(30))
        #expect(defaults.deadline == .seconds(120))
        #expect(defaults.maxBodySize == 64 << 20)
        #if !canImport(Darwin)
            #expect(APIClient.defaultTransport is AsyncHTTPClientTransport)
        #endif
    }

    #if os(Linux)
        /// Against a server that writes head and body apart without `TCP_NODELAY`, every request goes over
        /// one kept-alive connection that is out of delayed-ACK mode when its response comes: the head is
        /// acknowledged at once, so the body is not held back.
        ///
        /// The server holds each answer while the test reads the client socket's `TCP_QUICKACK`. The client
        /// sends nothing more before the answer, and receives nothing, so its mode cannot change on its own:
        /// without the transport setting it after each request, it stays in delayed-ACK mode.
        @Test func aServerWithoutNoDelayIsAnsweredOverOneConnectionThatAcknowledgesAtOnce() async throws {
            var configuration = FixtureServer.Configuration()
            configuration.noDelay = false
            try await withFixtureServer(configuration) { server async throws in
                for page in 1...10 {
                    server.hold()
                    let request = URLRequest(url: server.url(.page, query: ["page": "\(page % 5 + 1)"]))
                    let response = Task { [transport] in try await transport.send(request) }
                    #expect(await eventually { server.requestCount == page })
                    let sockets = ConnectedSockets.toPort(server.port)
                    #expect(sockets.count == 1)
                    let quickAck = await eventually { sockets.allSatisfy { ConnectedSockets.isQuickAck($0) == true } }
                    #expect(quickAck, "request \(page)")
                    server.release()
                    #expect(try await response.value.statusCode == 200)
                    if !quickAck { break }
                }
            }
        }

        /// Whether `condition` holds within 30 seconds (a loaded machine may be slow to connect), polled every millisecond.
        private func eventually(_ condition: () -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(30)
            while !condition() {
                guard ContinuousClock.now < deadline else { return false }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return true
        }
    #endif
}

/// The async-http-client transport against servers that stall, drip, lie and overflow.
@Suite struct AsyncHTTPClientTransportLimitsTests {
    private func expectFailure(
        _ route: HostileServer.Route, _ configuration: AsyncHTTPClientTransport.Configuration,
        server configuredServer: HostileServer.Configuration = .init()
    ) async throws -> NetworkError? {
        let server = try HostileServer(configuration: configuredServer)
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        return await #expect(throws: NetworkError.self) { try await transport.send(URLRequest(url: server.url(route))) }
    }

    #if os(Linux)
        @Test func aConnectionThatNeverOpensFailsByTheConnectTimeout() async throws {
            let backlog = try FullBacklog()
            defer { backlog.close() }
            let transport = AsyncHTTPClientTransport(
                configuration: .init(
                    connectTimeout: .milliseconds(300), idleTimeout: .seconds(60), deadline: .seconds(60)))
            let error = await #expect(throws: NetworkError.self) {
                try await transport.send(URLRequest(url: URL(string: "http://127.0.0.1:\(backlog.port)/")!))
            }
            #expect(error?.kind == .transport(.timeout))
        }
    #endif

    @Test func aServerThatNeverAnswersFailsByTheIdleTimeout() async throws {
        let error = try await expectFailure(.silent, .init(idleTimeout: .milliseconds(500), deadline: .seconds(60)))
        #expect(error?.kind == .transport(.timeout))
        #expect(error?.description.hasPrefix("The request timed out") == true)
    }

    @Test func aServerThatDripsFailsByTheTotalDeadline() async throws {
        let error = try await expectFailure(
            .drip, .init(idleTimeout: .seconds(30), deadline: .milliseconds(1500)),
            server: .init(dripInterval: .milliseconds(200)))
        #expect(error?.kind == .transport(.timeout))
    }

    @Test func aBodyShortOfItsContentLengthIsAConnectionLost() async throws {
        let error = try await expectFailure(.truncated, .init())
        #expect(error?.kind == .transport(.connectionLost))
        #expect(error?.isTransient == true)
    }

    @Test func aChunkedBodyCutOffIsAConnectionLost() async throws {
        let error = try await expectFailure(.dropped, .init())
        #expect(error?.kind == .transport(.connectionLost))
    }

    @Test(arguments: [HostileServer.Route.huge, .hugeChunked])
    func aBodyOverTheLimitIsTooLarge(route: HostileServer.Route) async throws {
        let error = try await expectFailure(
            route, .init(maxBodySize: 1 << 20), server: .init(hugeBodySize: 64 << 20))
        #expect(error?.kind == .responseTooLarge(limit: 1 << 20))
        #expect(error?.isTransient == false)
        #expect(error?.description.contains("1 MB") == true)
        #expect(error?.description.contains("--max-body-size") == true)
    }

    @Test func aCompressedBodyThatInflatesOverTheLimitIsTooLarge() async throws {
        let error = try await expectFailure(
            .gzipBomb, .init(maxBodySize: 1 << 20), server: .init(bombInflatedSize: 64 << 20))
        #expect(error?.kind == .responseTooLarge(limit: 1 << 20))
    }
}

#if os(Linux)
    /// A socket that listens on 127.0.0.1 with a backlog of one, never accepts, and is already full.
    ///
    /// Linux drops the SYN of any further connection, so a client's connect hangs
    /// until its own timeout, as it would against a filtered address.
    private struct FullBacklog {
        let port: Int
        private let descriptors: [Int32]

        init() throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, length) == 0 && listen(listener, 0) == 0
                        && getsockname(listener, $0, &length) == 0
                }
            }
            try #require(bound)
            var descriptors = [listener]
            for _ in 0..<3 {
                let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                _ = fcntl(filler, F_SETFL, fcntl(filler, F_GETFL) | O_NONBLOCK)
                _ = withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                descriptors.append(filler)
            }
            self.descriptors = descriptors
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        func close() {
            for descriptor in descriptors { _ = Glibc.close(descriptor) }
        }
    }
#endif
