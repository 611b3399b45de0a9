import Foundation
import SlippersNetworking
import SlippersTestSupport
import Testing

@testable import LocalAPI
@testable import SlippersFixtures

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hostile server itself: each route misbehaves as documented, and no more.
@Suite struct HostileServerTests {
    /// Sends a GET for `route` on a raw socket and returns the bytes received within about `wait`.
    private func rawExchange(_ server: HostileServer, _ route: HostileServer.Route, wait: Duration) throws -> [UInt8] {
        let descriptor = try #require(LoopbackSocket.make())
        defer { close(descriptor) }
        let connected = LoopbackSocket.withAddress(port: UInt16(server.port)) { connect(descriptor, $0, $1) }
        try #require(connected == 0)
        let request = Array("GET \(route.rawValue) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        var timeout = timeval(tv_sec: 0, tv_usec: 0)
        let (seconds, attoseconds) = wait.components
        timeout.tv_sec = Int(seconds)
        timeout.tv_usec = .init(attoseconds / 1_000_000_000_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let clock = ContinuousClock()
        let end = clock.now + wait
        while received.count < 1 << 20, clock.now < end {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return received
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func theJSONPageIsACompleteAnswerThatClosesItsConnection() async throws {
        let server = try HostileServer()
        defer { server.stop() }
        let response = try await AsyncHTTPClientTransport().send(URLRequest(url: server.url(.json)))
        #expect(response.statusCode == 200)
        #expect(response.body == Data(HostileServer.jsonPage.utf8))
        #expect(response.header("Connection") == "close")
    }

    @Test func theSilentRouteAcceptsAndSendsNothing() throws {
        let server = try HostileServer()
        defer { server.stop() }
        #expect(try rawExchange(server, .silent, wait: .milliseconds(300)).isEmpty)
        #expect(server.acceptedConnections == 1)
    }

    @Test func theDripRouteSendsItsHeadThenAByteAtATime() throws {
        let server = try HostileServer(configuration: .init(dripInterval: .milliseconds(100)))
        defer { server.stop() }
        let received = text(try rawExchange(server, .drip, wait: .seconds(1)))
        let parts = received.components(separatedBy: "\r\n\r\n")
        #expect(parts.count == 2)
        #expect(parts.first?.hasPrefix("HTTP/1.1 200 OK") == true)
        #expect(parts.first?.contains("Content-Length: 1000000") == true)
        // About ten bytes in a second; far fewer than the million announced.
        #expect((1...20).contains(parts.last?.count ?? 0))
    }

    @Test func theTruncatedRouteSendsLessThanItsContentLengthThenCloses() throws {
        let server = try HostileServer()
        defer { server.stop() }
        let parts = text(try rawExchange(server, .truncated, wait: .seconds(5))).components(separatedBy: "\r\n\r\n")
        #expect(parts.first?.contains("Content-Length: 1000") == true)
        #expect(parts.last == String(HostileServer.jsonPage.prefix(HostileServer.jsonPage.utf8.count / 2)))
    }

    @Test func theDroppedRouteClosesBeforeTheLastChunk() throws {
        let server = try HostileServer()
        defer { server.stop() }
        let received = text(try rawExchange(server, .dropped, wait: .seconds(5)))
        #expect(received.contains("Transfer-Encoding: chunked"))
        #expect(!received.hasSuffix("0\r\n\r\n"))
    }

    @Test func theHugeRouteAnnouncesItsSizeAndStreamsIt() throws {
        let server = try HostileServer(configuration: .init(hugeBodySize: 300_000))
        defer { server.stop() }
        let received = try rawExchange(server, .huge, wait: .seconds(5))
        let head = text(Array(received.prefix(200)))
        #expect(head.contains("Content-Length: 300000"))
        let headLength = try #require(received.firstRange(of: Array("\r\n\r\n".utf8))).upperBound
        #expect(received.count - headLength == 300_000)
    }

    @Test func theGzipBombIsAValidGzipOfZerosAboutAHundredAndFiftyTimesSmaller() async throws {
        let size = 10 << 20
        let server = try HostileServer(configuration: .init(bombInflatedSize: size))
        defer { server.stop() }
        let transport = AsyncHTTPClientTransport(configuration: .init(maxBodySize: size))
        let response = try await transport.send(URLRequest(url: server.url(.gzipBomb)))
        #expect(response.body.count == size)
        #expect(response.body.allSatisfy { $0 == 0 })
        let compressed = GzipBomb.gzip(zeros: size).count
        #expect(compressed < size / 150)
    }

    @Test func theCRCOfZerosMatchesTheKnownValues() {
        #expect(GzipBomb.crc32(zeros: 0) == 0)
        #expect(GzipBomb.crc32(zeros: 1) == 0xd202_ef8d)
        #expect(GzipBomb.crc32(zeros: 4) == 0x2144_df1c)
    }

    @Test func theRedirectRoutePointsAtTheJSONPage() throws {
        let server = try HostileServer()
        defer { server.stop() }
        let received = text(try rawExchange(server, .redirect, wait: .seconds(5)))
        #expect(received.hasPrefix("HTTP/1.1 302 Found"))
        #expect(received.contains("Location: /json"))
    }

    @Test func stoppingClosesOpenConnectionsAndRefusesNewOnes() async throws {
        let server = try HostileServer()
        let transport = AsyncHTTPClientTransport(configuration: .init(idleTimeout: .seconds(30)))
        let waiting = Task { try await transport.send(URLRequest(url: server.url(.silent))) }
        while server.acceptedConnections == 0 { try await Task.sleep(for: .milliseconds(10)) }
        server.stop()
        let error = await #expect(throws: NetworkError.self) { try await waiting.value }
        #expect(error?.kind == .transport(.connectionLost))
        let refused = await #expect(throws: NetworkError.self) {
            try await transport.send(URLRequest(url: server.url(.json)))
        }
        #expect(refused?.kind == .transport(.cannotConnect))
        #expect(try !LoopbackPort.isFree(server.port))
    }
}
