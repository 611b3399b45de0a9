import Foundation
import Slippers
import SlippersNetworking
import SlippersTestSupport
import Testing

@testable import LocalAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct FixtureServerTests {
    private func get(_ url: URL, headers: [String: String] = [:]) async throws -> NetworkResponse {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await loopbackTransport.send(request)
    }

    @Test func itListensOnLoopbackWithAFreePort() async throws {
        try await withFixtureServer { server async throws in
            #expect(server.port > 0)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            #expect(server.isRunning)
            let response = try await get(server.url(.page))
            #expect(response.statusCode == 200)
        }
    }

    /// The server writes a response's head and body apart: with Nagle's algorithm on, each
    /// response would wait for the client's delayed acknowledgement (≈ 40 ms).
    @Test func itsConnectionsHaveNagleOffAgainAfterARestart() async throws {
        try await withFixtureServer { server async throws in
            // Closed after the answer, so that no idle connection to the stopped server is reused.
            #expect(try await get(server.url(.page), headers: ["Connection": "close"]).statusCode == 200)
            #expect(isAllTrue(server.noDelayOfAcceptedConnections))
            await server.stop()
            try await server.start()
            #expect(try await get(server.url(.page)).statusCode == 200)
            #expect(isAllTrue(server.noDelayOfAcceptedConnections))
        }
    }

    private func isAllTrue(_ values: [Bool?]) -> Bool { !values.isEmpty && values.allSatisfy { $0 == true } }
    private func isAllFalse(_ values: [Bool?]) -> Bool { !values.isEmpty && values.allSatisfy { $0 == false } }

    @Test func withNoDelayOffItsConnectionsKeepNaglesAlgorithm() async throws {
        var configuration = FixtureServer.Configuration()
        configuration.noDelay = false
        try await withFixtureServer(configuration) { server async throws in
            #expect(try await get(server.url(.page)).statusCode == 200)
            #expect(isAllFalse(server.noDelayOfAcceptedConnections))
        }
    }

    @Test func afterStopConnectionsAreRefusedAndARestartUsesTheSamePort() async throws {
        try await withFixtureServer { server async throws in
            let port = server.port
            await server.stop()
            #expect(!server.isRunning)
            let error = await #expect(throws: NetworkError.self) { try await get(server.url(.page)) }
            #expect(error?.kind == .transport(.cannotConnect) || error?.kind == .transport(.connectionLost))
            try await server.start()
            #expect(server.port == port)
            #expect(try await get(server.url(.page)).statusCode == 200)
        }
    }

    /// Held from the first start, beside the listener: no server asking for a free port is given it
    /// even in the moment the listener closes, so a test of a server that went away never reaches
    /// another test's server.
    @Test(.enabled(if: PortReservation.isKeptWhileListening))
    func itsPortIsHeldFromItsFirstStartThroughEveryStop() async throws {
        try await withFixtureServer { server async throws in
            let port = server.port
            #expect(server.state.withLock { $0.reservation?.port } == UInt16(port))
            await server.stop()
            #expect(try !LoopbackPort.isFree(port))
            try await server.start()
            #expect(server.state.withLock { $0.reservation?.port } == UInt16(port))
        }
    }

    @Test func everyAnswerHasAnETagAndIfNoneMatchGets304() async throws {
        try await withFixtureServer { server async throws in
            let first = try await get(server.url(.offset))
            let etag = try #require(first.header("ETag"))
            let again = try await get(server.url(.offset), headers: ["If-None-Match": etag])
            #expect(again.statusCode == 304)
            #expect(again.body.isEmpty)
            #expect(server.requests.map(\.ifNoneMatch) == [nil, etag])
            server.update(id: 1, title: "New")
            #expect(try await get(server.url(.offset), headers: ["If-None-Match": etag]).statusCode == 200)
        }
    }

    @Test func insertingAtTheTopShiftsTheListNewestFirst() async throws {
        try await withFixtureServer(.init(itemCount: 5, pageSize: 3)) { server async throws in
            server.insertAtTop(count: 2)
            #expect(server.allIDs == [7, 6, 1, 2, 3, 4, 5])
            #expect(server.itemCount == 7)
            let source = HTTPPageSource(client: client(for: server), url: server.url(.offset), style: .offset(limit: 3))
            let (items, _) = try await walk(source)
            #expect(integerIDs(items) == [7, 6, 1, 2, 3, 4, 5])
        }
    }

    @Test func requestsAreRecordedWithTheirQueryAndSelectedHeaders() async throws {
        try await withFixtureServer { server async throws in
            _ = try await get(server.url(.cursor, query: ["limit": "5"]), headers: ["Authorization": "Bearer x"])
            let request = try #require(server.requests.first)
            #expect(request.method == "GET")
            #expect(request.path == "/cursor")
            #expect(request.query == ["limit": "5"])
            #expect(request.authorization == "Bearer x")
            server.resetRequests()
            #expect(server.requestCount == 0)
        }
    }

    @Test func heldAnswersWaitForTheRelease() async throws {
        try await withFixtureServer { server async throws in
            server.hold()
            let pending = Task { try await get(server.url(.page)) }
            await server.waitForRequests(1)
            let second = Task { try await get(server.url(.link)) }
            await server.waitForRequests(2)
            server.release()
            #expect(try await pending.value.statusCode == 200)
            #expect(try await second.value.statusCode == 200)
        }
    }

    @Test func injectedFaultsApplyToTheNextRequestsInOrder() async throws {
        try await withFixtureServer { server async throws in
            server.inject(.status(503, headers: ["Retry-After": "4"]))
            server.inject(.status(401), count: 2)
            let first = try await get(server.url(.page))
            #expect(first.statusCode == 503)
            #expect(first.header("Retry-After") == "4")
            #expect(try await get(server.url(.page)).statusCode == 401)
            #expect(try await get(server.url(.page)).statusCode == 401)
            #expect(try await get(server.url(.page)).statusCode == 200)
        }
    }

    @Test func badPageParametersAndUnknownRoutesAreClientErrors() async throws {
        try await withFixtureServer { server async throws in
            #expect(try await get(server.url(.page, query: ["page": "x"])).statusCode == 400)
            #expect(try await get(server.url(.cursor, query: ["cursor": "%%%"])).statusCode == 400)
            #expect(try await get(server.url(path: "/nowhere")).statusCode == 404)
        }
    }

    @Test func aRequiredTokenIsEnforcedAndCanBeChanged() async throws {
        try await withFixtureServer(.init(requiredBearerToken: "t1")) { server async throws in
            #expect(try await get(server.url(.page)).statusCode == 401)
            #expect(try await get(server.url(.page), headers: ["Authorization": "Bearer t1"]).statusCode == 200)
            server.setRequiredBearerToken(nil)
            #expect(try await get(server.url(.page)).statusCode == 200)
        }
    }
}
