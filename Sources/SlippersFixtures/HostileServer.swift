import Foundation
import Slippers
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw TCP server on 127.0.0.1 that misbehaves on purpose, one route per fault.
///
/// Where ``FixtureServer`` is a well-behaved API, this one is the server a
/// client must survive: it writes HTTP/1.1 by hand on blocking sockets, one
/// thread per connection, so it can stall, drip, lie about lengths and hang
/// up mid-body. Bodies are generated as they are sent, never held: the
/// 2 GB body costs the server 64 KB.
///
/// | route | behaviour |
/// | --- | --- |
/// | `/silent` | reads the request and never answers (the connection stays open) |
/// | `/drip` | sends the head, then one body byte per ``Configuration/dripInterval`` |
/// | `/huge` | `Content-Length:` ``Configuration/hugeBodySize`` (2 GB), streamed |
/// | `/huge-chunked` | the same bytes, chunked, with no length announced |
/// | `/gzip-bomb` | `Content-Encoding: gzip`, about 6.8 MB that inflate to ``Configuration/bombInflatedSize`` (1 GB) |
/// | `/truncated` | `Content-Length: 1000`, the first half of the JSON page, then the connection closes |
/// | `/dropped` | a chunked body cut off after its first chunk: no last chunk, the connection closes |
/// | `/json` | a plain JSON page of three items under `results`, `next` null |
/// | `/redirect` | `302 Found` to `/json` |
///
/// Every answer that ends closes its connection (`Connection: close`). The
/// server runs until ``stop()``: call it when done.
///
/// For example:
///
/// ```swift
/// let server = try HostileServer()          // listening on a free port
/// defer { server.stop() }
/// let url = server.url(.drip)               // http://127.0.0.1:PORT/drip
/// ```
public final class HostileServer: Sendable {
    /// Sizes and paces of the hostile routes.
    public struct Configuration: Sendable {
        /// The time between two bytes of `/drip`: 1 second by default.
        public var dripInterval: Duration
        /// The body size of `/huge` and `/huge-chunked`: 2 GB by default.
        public var hugeBodySize: Int
        /// The size `/gzip-bomb` inflates to: 1 GB by default.
        public var bombInflatedSize: Int

        /// Creates a configuration.
        public init(dripInterval: Duration = .seconds(1), hugeBodySize: Int = 2 << 30, bombInflatedSize: Int = 1 << 30)
        {
            self.dripInterval = dripInterval
            self.hugeBodySize = max(0, hugeBodySize)
            self.bombInflatedSize = max(1, bombInflatedSize)
        }
    }

    /// The hostile routes, one per behaviour.
    public enum Route: String, Sendable, CaseIterable {
        /// Reads the request and never answers.
        case silent = "/silent"
        /// Sends the head, then one body byte per interval.
        case drip = "/drip"
        /// A body of ``Configuration/hugeBodySize`` bytes with its `Content-Length`.
        case huge = "/huge"
        /// A body of ``Configuration/hugeBodySize`` bytes, chunked.
        case hugeChunked = "/huge-chunked"
        /// A small gzip body that inflates to ``Configuration/bombInflatedSize`` bytes of zeros.
        case gzipBomb = "/gzip-bomb"
        /// Half of the body its `Content-Length` announces, then the connection closes.
        case truncated = "/truncated"
        /// A chunked body whose connection closes before the last chunk.
        case dropped = "/dropped"
        /// A well-formed JSON page.
        case json = "/json"
        /// A `302` redirect to `/json`.
        case redirect = "/redirect"
    }

    /// The JSON page `/json` answers with, and `/truncated` starts.
    public static let jsonPage =
        #"{"results":[{"id":1,"title":"one"},{"id":2,"title":"two"},{"id":3,"title":"three"}],"next":null}"#

    private struct State {
        var listener: Int32
        var connections: Set<Int32> = []
        var accepted = 0
        var isStopped = false
        /// The port held for the server's life, where a listener can share it: see `PortReservation`.
        let reservation: PortReservation?
    }

    /// The configuration the routes follow.
    public let configuration: Configuration
    /// The port the server listens on.
    public let port: Int
    private let state: Mutex<State>
    private let bomb = Mutex<[UInt8]?>(nil)

    /// Starts listening on a free port of 127.0.0.1; connections are accepted on a thread of the server's.
    ///
    /// - throws: `POSIXError` when the socket cannot be made or bound.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        var reservation = PortReservation()
        guard let reserved = reservation?.port else { throw Self.lastError() }
        if !PortReservation.isKeptWhileListening { reservation = nil }
        let listener = try Self.makeListener(port: reserved)
        port = Int(reserved)
        state = Mutex(State(listener: listener, reservation: reservation))
        Thread.detachNewThread { [self] in acceptConnections(on: listener) }
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The URL of a route.
    public func url(_ route: Route) -> URL {
        baseURL.appendingPathComponent(String(route.rawValue.dropFirst()))
    }

    /// The number of connections accepted so far.
    public var acceptedConnections: Int { state.withLock { $0.accepted } }

    /// Stops listening and closes every open connection; their threads end soon after.
    public func stop() {
        // shutdown() wakes a thread blocked in accept() or recv() on Linux, where close() alone does not.
        // It runs under the lock, as the closing of connections does, so a descriptor number is never
        // shut down after its connection closed it and something else reused it.
        state.withLock { state in
            guard !state.isStopped else { return }
            state.isStopped = true
            if state.listener >= 0 { _ = shutdown(state.listener, Int32(SHUT_RDWR)) }
            for connection in state.connections { _ = shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private var isStopped: Bool { state.withLock { $0.isStopped } }

    // MARK: Sockets

    /// A socket listening on `port` of 127.0.0.1, beside the port's reservation.
    private static func makeListener(port: UInt16) throws -> Int32 {
        guard let descriptor = LoopbackSocket.make() else { throw Self.lastError() }
        guard PortReservation.bindReusably(descriptor, port: port), listen(descriptor, 64) == 0 else {
            let error = Self.lastError()
            close(descriptor)
            throw error
        }
        return descriptor
    }

    private static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }

    private func acceptConnections(on listener: Int32) {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            let isAdmitted = state.withLock { state in
                guard !state.isStopped else { return false }
                state.connections.insert(connection)
                state.accepted += 1
                return true
            }
            guard isAdmitted else {
                close(connection)
                break
            }
            #if canImport(Darwin)
                var on: Int32 = 1
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            Thread.detachNewThread { [self] in
                serve(connection)
                state.withLock { state in
                    state.connections.remove(connection)
                    close(connection)
                }
            }
        }
        state.withLock { state in
            close(state.listener)
            state.listener = -1
        }
    }

    // MARK: Routes

    private func serve(_ connection: Int32) {
        guard let path = Self.readRequestPath(connection) else { return }
        switch Route(rawValue: path) {
        case .silent?:
            // Hold the connection until the client or stop() closes it.
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) > 0 {}
        case .drip?:
            guard sendAll(connection, Self.head(status: "200 OK", ["Content-Length": "1000000"])) else { return }
            for _ in 0..<1_000_000 {
                Thread.sleep(forTimeInterval: configuration.dripInterval.timeInterval)
                guard !isStopped, sendAll(connection, [UInt8(ascii: " ")]) else { return }
            }
        case .huge?:
            let size = configuration.hugeBodySize
            guard sendAll(connection, Self.head(status: "200 OK", ["Content-Length": String(size)])) else { return }
            _ = sendZeros(connection, count: size, chunked: false)
        case .hugeChunked?:
            guard sendAll(connection, Self.head(status: "200 OK", ["Transfer-Encoding": "chunked"])) else { return }
            guard sendZeros(connection, count: configuration.hugeBodySize, chunked: true) else { return }
            _ = sendAll(connection, Array("0\r\n\r\n".utf8))
        case .gzipBomb?:
            let body = bombBody()
            let head = Self.head(
                status: "200 OK", ["Content-Encoding": "gzip", "Content-Length": String(body.count)])
            _ = sendAll(connection, head) && sendAll(connection, body)
        case .truncated?:
            let body = Array(Self.jsonPage.utf8)
            let head = Self.head(status: "200 OK", ["Content-Length": "1000"])
            _ = sendAll(connection, head) && sendAll(connection, Array(body.prefix(body.count / 2)))
        case .dropped?:
            let body = Array(Self.jsonPage.utf8)
            let chunk = Array(body.prefix(body.count / 2))
            let head = Self.head(status: "200 OK", ["Transfer-Encoding": "chunked"])
            let size = Array(String(chunk.count, radix: 16).utf8) + [13, 10]
            _ = sendAll(connection, head + size + chunk + [13, 10])
        case .json?:
            let body = Array(Self.jsonPage.utf8)
            _ = sendAll(connection, Self.head(status: "200 OK", ["Content-Length": String(body.count)]) + body)
        case .redirect?:
            let head = Self.head(status: "302 Found", ["Location": Route.json.rawValue, "Content-Length": "0"])
            _ = sendAll(connection, head)
        case nil:
            let body = Array(#"{"error":"no such route"}"#.utf8)
            _ = sendAll(connection, Self.head(status: "404 Not Found", ["Content-Length": String(body.count)]) + body)
        }
    }

    /// Reads the request head and returns its path without the query; `nil` if the client left first.
    private static func readRequestPath(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while received.count < 65_536 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[..<count]
            if received.firstRange(of: end) != nil { break }
        }
        let requestLine = received.split(separator: 13, maxSplits: 1).first ?? []
        let fields = String(decoding: requestLine, as: UTF8.self).split(separator: " ")
        guard fields.count >= 2 else { return nil }
        return String(fields[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }

    private static func head(status: String, _ headers: [String: String]) -> [UInt8] {
        var lines = ["HTTP/1.1 \(status)", "Content-Type: application/json", "Connection: close"]
        lines += headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Writes all the bytes; `false` once the client has gone or the server stops.
    private func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { pointer in
                sendWithoutSignal(connection, pointer.baseAddress, pointer.count)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Streams `count` zero bytes, 64 KB at a time, as chunks or as they are.
    private func sendZeros(_ connection: Int32, count: Int, chunked: Bool) -> Bool {
        let block = [UInt8](repeating: 0, count: 64 << 10)
        var remaining = count
        while remaining > 0 {
            let size = min(remaining, block.count)
            let piece = size == block.count ? block : Array(block.prefix(size))
            let framed = chunked ? Array(String(size, radix: 16).utf8) + [13, 10] + piece + [13, 10] : piece
            guard !isStopped, sendAll(connection, framed) else { return false }
            remaining -= size
        }
        return true
    }

    private func bombBody() -> [UInt8] {
        bomb.withLock { cached in
            if let cached { return cached }
            let body = GzipBomb.gzip(zeros: configuration.bombInflatedSize)
            cached = body
            return body
        }
    }
}

/// `send(2)` without `SIGPIPE` when the client has gone (Darwin sockets get `SO_NOSIGPIPE` instead).
private func sendWithoutSignal(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
        send(descriptor, bytes, count, 0)
    #endif
}
