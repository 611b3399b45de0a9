import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Testing

/// Faults injected into the fixture server, met by the real URLSession transport, retries, auth and validators.
@Suite struct FaultHandlingTests {
    private let configuration = FixtureServer.Configuration(itemCount: 30, pageSize: 10)

    private func source(_ server: FixtureServer, _ client: APIClient, _ route: FixtureServer.Route = .offset)
        -> HTTPPageSource
    {
        let styles: [FixtureServer.Route: PaginationStyle] = [
            .offset: .offset(limit: 10), .cursor: .cursor(itemsKeyPath: "results"), .next: .nextURL(),
            .link: .linkHeader(pageSize: 10), .page: .pageNumber(pageSize: 10, itemsKeyPath: "results"),
        ]
        return HTTPPageSource(client: client, url: server.url(route), style: styles[route] ?? .offset())
    }

    @Test func serverErrorsAreRetriedUntilTheyPass() async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.inject(.status(500, body: "boom"), count: 2)
            let page = try #require(try await source(server, client(for: server)).fetch(.first).page)
            #expect(integerIDs(page.items) == Array(1...10))
            #expect(server.requestCount == 3)
        }
    }

    @Test func aServerErrorThatPersistsFailsWithTheStatusAndABodySnippet() async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.inject(.status(500, body: #"{"error":"database on fire"}"#), count: 5)
            let error = await #expect(throws: NetworkError.self) {
                try await source(server, client(for: server)).fetch(.first)
            }
            #expect(error?.kind == .http(status: 500, bodySnippet: #"{"error":"database on fire"}"#))
            #expect(server.requestCount == quickRetries.maxAttempts)
        }
    }

    @Test(arguments: [400, 403, 404, 422])
    func otherClientErrorsAreNotRetried(status: Int) async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.inject(.status(status), count: 3)
            let error = await #expect(throws: NetworkError.self) {
                try await source(server, client(for: server)).fetch(.first)
            }
            #expect(error?.status == status)
            #expect(server.requestCount == 1)
        }
    }

    @Test(arguments: [FixtureServer.Fault.unavailable(retryAfter: 2), .tooManyRequests(retryAfter: 3)])
    func retryAfterIsHonoured(fault: FixtureServer.Fault) async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.inject(fault)
            let recorder = SleepRecorder()
            var client = client(for: server)
            client.sleep = recorder.sleep
            _ = try await source(server, client).fetch(.first)
            guard case .status(_, let headers, _) = fault, let seconds = headers["Retry-After"].flatMap(Int.init) else {
                Issue.record("the fault has no Retry-After")
                return
            }
            #expect(recorder.recorded == [.seconds(seconds)])
            #expect(server.requestCount == 2)
        }
    }

    @Test func aDroppedConnectionIsATransportFailureThatIsRetried() async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.inject(.dropConnection)
            let once = source(server, client(for: server, retryPolicy: .none))
            let error = await #expect(throws: NetworkError.self) { try await once.fetch(.first) }
            guard case .transport = error?.kind else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            server.inject(.dropConnection)
            let page = try #require(try await source(server, client(for: server)).fetch(.first).page)
            #expect(page.items.count == 10)
        }
    }

    @Test func jsonCutShortIsRetriedAsTransient() async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.inject(.truncatedJSON, count: 2)
            let page = try #require(try await source(server, client(for: server)).fetch(.first).page)
            #expect(integerIDs(page.items) == Array(1...10))
            #expect(server.requestCount == 3)
        }
    }

    @Test func jsonCutShortEveryTimeFailsAsATruncatedBody() async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.inject(.truncatedJSON, count: 10)
            let error = await #expect(throws: NetworkError.self) {
                try await source(server, client(for: server)).fetch(.first)
            }
            guard case .truncatedBody = error?.kind else {
                Issue.record("expected a truncated body, got \(String(describing: error))")
                return
            }
            #expect(error?.isTransient == true)
            #expect(error?.description.contains("cut short") == true)
            #expect(server.requestCount == quickRetries.maxAttempts)
        }
    }

    @Test func aCompleteBodyThatIsNotTheExpectedJSONIsNotRetried() async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.script("/odd") { _ in .json(#"{"unexpected": true}"#) }
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(path: "/odd"), style: .offset(limit: 10))
            let error = await #expect(throws: NetworkError.self) { try await source.fetch(.first) }
            guard case .decoding = error?.kind else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(server.requestCount == 1)
        }
    }

    @Test func aSlowResponseTimesOutAndIsRetried() async throws {
        try await withFixtureServer(configuration) { server async throws in
            let impatient = AsyncHTTPClientTransport(configuration: .init(idleTimeout: .seconds(1)))
            server.inject(.delay(.seconds(4)))
            let once = APIClient(
                configuration: ServerConfiguration(host: "127.0.0.1"),
                options: APIClient.Options(transport: impatient, retryPolicy: .none))
            let error = await #expect(throws: NetworkError.self) { try await source(server, once).fetch(.first) }
            #expect(error?.kind == .transport(.timeout))

            // The retry must answer within the timeout even on a loaded machine (the whole suite on
            // two busy cores was seen to take more than 3 s): give it room.
            server.inject(.delay(.seconds(20)))
            let retrying = APIClient(
                configuration: ServerConfiguration(host: "127.0.0.1"),
                options: APIClient.Options(
                    transport: AsyncHTTPClientTransport(configuration: .init(idleTimeout: .seconds(8))),
                    retryPolicy: quickRetries))
            let page = try #require(try await source(server, retrying).fetch(.first).page)
            #expect(page.items.count == 10)
        }
    }

    @Test func aStoppedServerCannotBeReachedAndARestartedOneCan() async throws {
        try await withFixtureServer(configuration) { server async throws in
            let source = source(server, client(for: server, retryPolicy: .none))
            _ = try await source.fetch(.first)
            await server.stop()
            let error = await #expect(throws: NetworkError.self) { try await source.fetch(.first) }
            #expect(error?.kind == .transport(.cannotConnect) || error?.kind == .transport(.connectionLost))

            try await server.start()
            let retrying = self.source(server, client(for: server))
            let page = try #require(try await retrying.fetch(.first).page)
            #expect(page.items.count == 10)
        }
    }

    @Test func cancellingTheTaskCancelsTheRequestInFlight() async throws {
        try await withFixtureServer(configuration) { server async throws in
            server.hold()
            let source = source(server, client(for: server))
            let task = Task { try await source.fetch(.first) }
            await server.waitForRequests(1)
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
            server.release()
            #expect(server.requestCount == 1)
        }
    }

    @Test(arguments: [FixtureServer.Route.cursor, .next, .link])
    func aNextPageThatDoesNotAdvanceStopsWithAnError(route: FixtureServer.Route) async throws {
        try await withFixtureServer(configuration) { server async throws in
            let source = source(server, client(for: server), route)
            let first = try #require(try await source.fetch(.first).page)
            server.inject(.nonAdvancing, count: 10)
            let error = await #expect(throws: NetworkError.self) {
                _ = try await walk(source, maxPages: 20)
                _ = try await source.fetch(PageRequest(token: first.nextToken))
            }
            guard case .notAdvancing = error?.kind else {
                Issue.record("expected notAdvancing, got \(String(describing: error))")
                return
            }
            #expect(server.requestCount < 10)
        }
    }

    @Test func aKnownPageIsRevalidatedWithItsETagAndReportedNotModified() async throws {
        try await withFixtureServer(configuration) { server async throws in
            let source = source(server, client(for: server))
            let first = try #require(try await source.fetch(.first).page)
            let etag = try #require(first.validators.etag)

            let again = try await source.fetch(PageRequest(validators: first.validators))
            #expect(again == .notModified(first.validators))
            #expect(server.requests.last?.ifNoneMatch == etag)

            server.update(id: 3, title: "Changed on the server")
            let changed = try #require(try await source.fetch(PageRequest(validators: first.validators)).page)
            #expect(changed.validators.etag != etag)
            #expect(try changed.items[2].decode(FixtureItem.self).title == "Changed on the server")
        }
    }

    @Test func a401RefreshesTheTokenAndRetriesOnce() async throws {
        try await withFixtureServer(.init(itemCount: 30, pageSize: 10, requiredBearerToken: "fresh")) {
            server async throws in
            let auth = BearerTokenAuthenticator(token: "expired") { "fresh" }
            var client = client(for: server)
            client.authenticator = auth
            let page = try #require(try await source(server, client).fetch(.first).page)
            #expect(page.items.count == 10)
            #expect(server.requests.map(\.authorization) == ["Bearer expired", "Bearer fresh"])
            #expect(await auth.renewalCount == 1)
        }
    }

    @Test func a401AfterTheRefreshIsTheCallersErrorAndNeverShowsTheToken() async throws {
        try await withFixtureServer(.init(itemCount: 30, pageSize: 10, requiredBearerToken: "right")) {
            server async throws in
            let auth = BearerTokenAuthenticator(token: "wrong-1") { "wrong-2" }
            var client = client(for: server)
            client.authenticator = auth
            let error = await #expect(throws: NetworkError.self) { try await source(server, client).fetch(.first) }
            #expect(error?.status == 401)
            #expect(server.requestCount == 2)
            #expect(error?.description.contains("wrong") == false)
        }
    }

    @Test func stubbingAnswersWithoutTheServerSeeingAnyRequest() async throws {
        try await withFixtureServer(configuration) { server async throws in
            let endpoint = Endpoint(.get, "offset").stubbed(.json(#"{"results": [{"id": 7}], "total": 1}"#))
            let stubbed = APIClient(
                configuration: try #require(ServerConfiguration(baseURL: server.baseURL)).stubbing(),
                options: APIClient.Options(transport: loopbackTransport))
            let body = try await stubbed.load(Resource(data: endpoint))
            #expect(String(decoding: body, as: UTF8.self).contains(#""id": 7"#))

            let live = client(for: server)
            let alwaysStubbed = endpoint.stubbed(.json("[]", statusCode: 200), always: true)
            #expect(try await live.load(Resource(data: alwaysStubbed)) == Data("[]".utf8))
            await #expect(throws: NetworkError.self) { try await stubbed.load(Resource(data: Endpoint(.get, "page"))) }
            #expect(server.requestCount == 0)

            _ = try await live.load(Resource(data: Endpoint(.get, "offset")))
            #expect(server.requestCount == 1)
        }
    }
}
