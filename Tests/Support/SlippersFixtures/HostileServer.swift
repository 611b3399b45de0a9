import Foundation
import LocalAPI
import NIOCore
import Synchronization

/// A raw TCP server on 127.0.0.1 that misbehaves on purpose, one route per fault.
///
/// Where `FixtureServer` is a well-behaved API, this one is the server a
/// client must survive: it writes HTTP/1.1 by hand, as bytes on its SwiftNIO
/// channels with no HTTP codec, so it can stall, drip, lie about lengths and
/// hang up mid-body. Bodies are generated as they are sent, never held: the
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

    /// The configuration the routes follow.
    public let configuration: Configuration
    /// The port the server listens on.
    public let port: Int
    private let listener: LoopbackListener
    private let bomb: Bomb
    /// The port held for the server's life, where a listener can share it: see `PortReservation`.
    private let reservation: PortReservation?

    /// Starts listening on a free port of 127.0.0.1.
    ///
    /// - throws: The socket error when the port cannot be bound.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        let bomb = Bomb(inflatedSize: configuration.bombInflatedSize)
        self.bomb = bomb
        var reservation = PortReservation()
        guard let reserved = reservation?.port else { throw POSIXError(.EADDRINUSE) }
        if !PortReservation.isKeptWhileListening { reservation = nil }
        self.reservation = reservation
        listener = try LoopbackListener.bind(of: ByteBuffer.self, port: Int(reserved)) { _ in
        } serve: { inbound, channel in
            await Self.serve(inbound, on: channel, configuration: configuration, bomb: bomb)
        }.wait()
        port = listener.port
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
    public var acceptedConnections: Int { listener.acceptedConnections }

    /// Stops listening and closes every open connection; their tasks end soon after.
    ///
    /// Connections are refused once it returns; the port stays held while the server lives.
    public func stop() {
        listener.close()
    }

    // MARK: Routes

    private static func serve(
        _ inbound: AsyncStream<ByteBuffer>, on channel: any Channel, configuration: Configuration, bomb: Bomb
    ) async {
        var iterator = inbound.makeAsyncIterator()
        guard let path = await readRequestPath(&iterator) else { return }
        let connection = Connection(channel: channel)
        do {
            switch Route(rawValue: path) {
            case .silent?:
                // Hold the connection until the client or stop() closes it.
                while await iterator.next() != nil {}
            case .drip?:
                try await connection.send(head(status: "200 OK", ["Content-Length": "1000000"]))
                for _ in 0..<1_000_000 {
                    try await Task.sleep(for: configuration.dripInterval)
                    try await connection.send([UInt8(ascii: " ")])
                }
            case .huge?:
                let size = configuration.hugeBodySize
                try await connection.send(head(status: "200 OK", ["Content-Length": String(size)]))
                try await connection.sendZeros(count: size, chunked: false)
            case .hugeChunked?:
                try await connection.send(head(status: "200 OK", ["Transfer-Encoding": "chunked"]))
                try await connection.sendZeros(count: configuration.hugeBodySize, chunked: true)
                try await connection.send(Array("0\r\n\r\n".utf8))
            case .gzipBomb?:
                let body = bomb.body()
                try await connection.send(
                    head(status: "200 OK", ["Content-Encoding": "gzip", "Content-Length": String(body.count)]) + body)
            case .truncated?:
                let body = Array(jsonPage.utf8)
                try await connection.send(
                    head(status: "200 OK", ["Content-Length": "1000"]) + Array(body.prefix(body.count / 2)))
            case .dropped?:
                let body = Array(jsonPage.utf8)
                let chunk = Array(body.prefix(body.count / 2))
                let size = Array(String(chunk.count, radix: 16).utf8) + [13, 10]
                try await connection.send(
                    head(status: "200 OK", ["Transfer-Encoding": "chunked"]) + size + chunk + [13, 10])
            case .json?:
                let body = Array(jsonPage.utf8)
                try await connection.send(head(status: "200 OK", ["Content-Length": String(body.count)]) + body)
            case .redirect?:
                try await connection.send(
                    head(status: "302 Found", ["Location": Route.json.rawValue, "Content-Length": "0"]))
            case nil:
                let body = Array(#"{"error":"no such route"}"#.utf8)
                try await connection.send(
                    head(status: "404 Not Found", ["Content-Length": String(body.count)]) + body)
            }
        } catch {
            // The client left, or the server stopped.
        }
    }

    /// Reads the request head and returns its path without the query; `nil` if the client left first.
    private static func readRequestPath(_ iterator: inout AsyncStream<ByteBuffer>.Iterator) async -> String? {
        var received: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        while received.count < 65_536, received.firstRange(of: end) == nil {
            guard let chunk = await iterator.next() else { return nil }
            received += chunk.readableBytesView
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

    /// Bytes written on a connection, each write awaited until the socket took it: a client that
    /// reads slowly slows the server down, and nothing piles up in memory.
    private struct Connection {
        let channel: any Channel

        func send(_ bytes: [UInt8]) async throws {
            try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
        }

        /// Streams `count` zero bytes, 64 KB at a time, as chunks or as they are.
        func sendZeros(count: Int, chunked: Bool) async throws {
            let block = ByteBuffer(repeating: 0, count: 64 << 10)
            var remaining = count
            while remaining > 0 {
                let size = min(remaining, block.readableBytes)
                let piece = block.getSlice(at: block.readerIndex, length: size) ?? block
                if chunked {
                    channel.write(ByteBuffer(string: String(size, radix: 16) + "\r\n"), promise: nil)
                    channel.write(piece, promise: nil)
                    try await channel.writeAndFlush(ByteBuffer(string: "\r\n"))
                } else {
                    try await channel.writeAndFlush(piece)
                }
                remaining -= size
            }
        }
    }

    /// The gzip bomb's body, made on first use and kept.
    private final class Bomb: Sendable {
        let inflatedSize: Int
        private let cached = Mutex<[UInt8]?>(nil)

        init(inflatedSize: Int) {
            self.inflatedSize = inflatedSize
        }

        func body() -> [UInt8] {
            cached.withLock { cached in
                if let cached { return cached }
                let body = GzipBomb.gzip(zeros: inflatedSize)
                cached = body
                return body
            }
        }
    }
}
