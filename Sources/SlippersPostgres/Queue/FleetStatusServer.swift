import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// A small HTTP server for a fleet worker's supervisor: `GET /metrics` answers what ``metrics``
/// renders (such as the Prometheus text format), and `GET /health` answers `200` while the
/// worker is healthy (``FleetHealth/isHealthy``) and `503` otherwise. Any other path is `404`.
///
/// It is a swift-service-lifecycle `Service`: it listens until the group shuts down gracefully
/// or is cancelled. It serves on the SwiftNIO stack the PostgreSQL connection already runs on.
public struct FleetStatusServer: Service {
    /// The address to listen on, such as `127.0.0.1`.
    let host: String
    /// The port to listen on; 0 for any free port (see ``onListening``).
    package let port: Int
    /// The body of `/metrics`, rendered at each request.
    public let metrics: @Sendable () -> String
    /// The worker's health, for `/health`.
    public let health: FleetHealth
    /// Called with the port once the server listens.
    package var onListening: @Sendable (Int) -> Void = { _ in }

    /// Creates a server of `metrics` and `health` on `host:port`.
    public init(host: String, port: Int, health: FleetHealth, metrics: @escaping @Sendable () -> String) {
        self.host = host
        self.port = port
        self.health = health
        self.metrics = metrics
    }

    /// Listens until the group shuts down gracefully or the task is cancelled.
    ///
    /// - throws: The bind's error, when the address cannot be listened on.
    public func run() async throws {
        let (metrics, health) = (self.metrics, self.health)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(StatusHandler(metrics: metrics, health: health))
                }
            }
            .bind(host: host, port: port)
            .get()
        onListening(channel.localAddress?.port ?? port)
        try? await gracefulShutdown()
        try? await channel.close()
    }
}

/// Answers `/metrics` and `/health`, one response per request.
private final class StatusHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let metrics: @Sendable () -> String
    private let health: FleetHealth
    private var request: HTTPRequestHead?

    init(metrics: @escaping @Sendable () -> String, health: FleetHealth) {
        self.metrics = metrics
        self.health = health
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): request = head
        case .body: break
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let (status, type, body): (HTTPResponseStatus, String, String)
        switch (head.method, path) {
        case (.GET, "/metrics"), (.HEAD, "/metrics"):
            (status, type, body) = (.ok, "text/plain; version=0.0.4; charset=utf-8", metrics())
        case (.GET, "/health"), (.HEAD, "/health"):
            let healthy = health.isHealthy
            (status, type, body) = (
                healthy ? .ok : .serviceUnavailable, "text/plain; charset=utf-8", healthy ? "ok\n" : "unavailable\n"
            )
        case (_, "/metrics"), (_, "/health"):
            (status, type, body) = (.methodNotAllowed, "text/plain; charset=utf-8", "method not allowed\n")
        default:
            (status, type, body) = (.notFound, "text/plain; charset=utf-8", "not found\n")
        }
        var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
        if head.method != .HEAD { buffer.writeString(body) }
        var headers = HTTPHeaders([("Content-Type", type), ("Content-Length", String(body.utf8.count))])
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        if head.isKeepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let promise = context.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
        }
    }
}
