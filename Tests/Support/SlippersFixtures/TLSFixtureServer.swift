import Foundation
import LocalAPI
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// An `https` server on 127.0.0.1 that answers every request with one JSON page, for tests of TLS trust.
///
/// Its certificate is one of ``TestCertificates``, signed by the test CA that
/// nothing trusts unless told to (``TestCertificates/authority``). For example:
///
/// ```swift
/// let server = try await TLSFixtureServer.start(certificate: .expired)
/// defer { Task { await server.stop() } }
/// // A client that trusts the test CA still refuses the expired certificate.
/// ```
public final class TLSFixtureServer: Sendable {
    /// Which certificate the server shows.
    public enum Certificate: Sendable {
        /// Valid for 127.0.0.1, signed by the test CA.
        case valid
        /// Signed by the test CA, but for another host name.
        case otherName
        /// For 127.0.0.1, signed by the test CA, expired.
        case expired
    }

    /// The body of every answer: a page of two items that ends the list.
    public static let body = #"{"results": [{"id": 1, "title": "One"}, {"id": 2, "title": "Two"}], "next": null}"#

    private let listener: LoopbackListener
    private let counter: HandshakeCounter

    /// The port the server listens on.
    public let port: Int

    /// The URL of the list it serves.
    public var url: URL { URL(string: "https://127.0.0.1:\(port)/items") ?? URL(fileURLWithPath: "/") }

    /// The number of requests answered so far: each one got through a TLS handshake.
    public var requestCount: Int { counter.count.withLock { $0 } }

    /// Starts a server showing `certificate` on a free port of 127.0.0.1.
    public static func start(certificate: Certificate = .valid) async throws -> TLSFixtureServer {
        let pem =
            switch certificate {
            case .valid: TestCertificates.server
            case .otherName: TestCertificates.otherName
            case .expired: TestCertificates.expired
            }
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(bytes: Array(TestCertificates.serverKey.utf8), format: .pem)
        let context = try NIOSSLContext(
            configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
        let counter = HandshakeCounter()
        let listener = try await LoopbackListener.bind(of: HTTPServerRequestPart.self) { pipeline in
            try pipeline.addHandler(NIOSSLServerHandler(context: context))
            try pipeline.configureHTTPServerPipeline()
        } serve: { inbound, channel in
            await respond(to: inbound, on: channel, counter: counter)
        }.get()
        return TLSFixtureServer(listener: listener, counter: counter)
    }

    private init(listener: LoopbackListener, counter: HandshakeCounter) {
        self.listener = listener
        self.counter = counter
        self.port = listener.port
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        await listener.stop()
    }

    /// The number of answered requests, shared by the server's connections.
    private final class HandshakeCounter: Sendable {
        let count = Mutex(0)
    }

    /// Answers each request with ``TLSFixtureServer/body``, keeping the connection open.
    private static func respond(
        to inbound: AsyncStream<HTTPServerRequestPart>, on channel: any Channel, counter: HandshakeCounter
    ) async {
        for await part in inbound {
            guard case .end = part else { continue }
            counter.count.withLock { $0 += 1 }
            let body = ByteBuffer(string: TLSFixtureServer.body)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            channel.write(
                HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)),
                promise: nil)
            channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil)
            guard (try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil))) != nil else { return }
        }
    }
}
