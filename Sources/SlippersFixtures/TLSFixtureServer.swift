import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
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

    private let channel: any Channel
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
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Responder(counter: counter))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return TLSFixtureServer(channel: channel, counter: counter)
    }

    private init(channel: any Channel, counter: HandshakeCounter) {
        self.channel = channel
        self.counter = counter
        self.port = channel.localAddress?.port ?? 0
    }

    /// Stops listening.
    public func stop() async {
        try? await channel.close()
    }

    /// The number of answered requests, shared by the server's connections.
    private final class HandshakeCounter: Sendable {
        let count = Mutex(0)
    }

    /// Answers each request with ``TLSFixtureServer/body``.
    private final class Responder: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let counter: HandshakeCounter

        init(counter: HandshakeCounter) {
            self.counter = counter
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            counter.count.withLock { $0 += 1 }
            let body = ByteBuffer(string: TLSFixtureServer.body)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
            )
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
