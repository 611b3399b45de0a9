import NIOCore
import NIOPosix
import Synchronization

/// A TCP listener on 127.0.0.1 over SwiftNIO that serves each connection in a task of its own:
/// the one server stack of the local API and of the test servers.
///
/// Each accepted connection gets the handlers `configure` adds (an HTTP codec, TLS, or none for
/// raw bytes), then `serve` reads what they decode as an `AsyncStream` and writes on the channel;
/// the connection closes when `serve` returns. Connections are served on their event loop's thread,
/// not in the cooperative pool: a server stays responsive while its client's code blocks every
/// thread of the pool (a test reading a socket synchronously on a machine of two cores). ``stop()`` closes the listener and every
/// connection, and waits for their tasks.
///
/// For example, an echo server:
///
/// ```swift
/// let listener = try await LoopbackListener.bind(of: ByteBuffer.self) { _ in } serve: { inbound, channel in
///     for await bytes in inbound { try? await channel.writeAndFlush(bytes) }
/// }.get()
/// ```
package final class LoopbackListener: Sendable {
    /// The event loops of every listener of the process, apart from the clients' (NIO's singleton
    /// group, which async-http-client uses): a server's work never delays its client's I/O.
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: max(2, System.coreCount))

    /// The port the listener is bound to.
    package let port: Int
    private let channel: any Channel
    private let connections: Connections

    /// Binds `port` of 127.0.0.1 (0: a free port) with `SO_REUSEADDR`, so that it binds beside a
    /// reservation of the port and beside the connections of an earlier listener in `TIME_WAIT`.
    ///
    /// - parameter noDelay: Whether accepted connections have `TCP_NODELAY` set.
    /// - parameter configure: Adds a connection's handlers; runs on its event loop.
    /// - parameter serve: Serves a connection: what its handlers decode, in order, and the
    ///   channel to write to. The connection closes when it returns.
    package static func bind<Inbound: Sendable>(
        of inbound: Inbound.Type,
        port: Int = 0,
        noDelay: Bool = true,
        configure: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void,
        serve: @escaping @Sendable (AsyncStream<Inbound>, any Channel) async -> Void
    ) -> EventLoopFuture<LoopbackListener> {
        let connections = Connections()
        return ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: noDelay ? 1 : 0)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try configure(pipeline)
                    let (stream, continuation) = AsyncStream<Inbound>.makeStream()
                    try pipeline.addHandler(InboundStream(continuation: continuation))
                    let option = try? channel.syncOptions?.getOption(.tcpOption(.tcp_nodelay))
                    let executor = EventLoopTaskExecutor(eventLoop: channel.eventLoop)
                    try connections.admit(channel, noDelay: option.map { $0 != 0 }) {
                        Task(executorPreference: executor) {
                            await serve(stream, channel)
                            try? await channel.close()
                        }
                    }
                }
            }
            .bind(host: "127.0.0.1", port: port)
            .map { LoopbackListener(channel: $0, connections: connections) }
    }

    private init(channel: any Channel, connections: Connections) {
        self.channel = channel
        self.connections = connections
        self.port = channel.localAddress?.port ?? 0
    }

    /// The number of connections accepted so far.
    package var acceptedConnections: Int { connections.state.withLock { $0.accepted } }

    /// Whether each connection accepted so far had `TCP_NODELAY` set, in order (`nil` where it could not be read).
    package var noDelayOfAcceptedConnections: [Bool?] { connections.state.withLock { $0.noDelay } }

    /// Stops listening and closes every connection, without waiting for the connections.
    ///
    /// Connections are refused once it returns, unless it is called on the listener's event loop.
    package func close() {
        if channel.eventLoop.inEventLoop {
            channel.close(promise: nil)
        } else {
            try? channel.close().wait()
        }
        for (channel, task) in connections.closeAll() {
            task?.cancel()
            channel.close(promise: nil)
        }
    }

    /// Stops listening, closes every connection and waits until their tasks have ended.
    package func stop() async {
        try? await channel.close()
        let open = connections.closeAll()
        for (channel, task) in open {
            task?.cancel()
            try? await channel.close()
        }
        for (_, task) in open { await task?.value }
    }

    /// The open connections and their tasks, shared with the child channel initializer.
    private final class Connections: Sendable {
        struct State {
            var open: [ObjectIdentifier: (channel: any Channel, task: Task<Void, Never>?)] = [:]
            var accepted = 0
            var noDelay: [Bool?] = []
            var isClosed = false
        }

        struct Closed: Error {}

        let state = Mutex(State())

        /// Records a new connection and starts its task; throws, refusing it, once the listener is closed.
        func admit(_ channel: any Channel, noDelay: Bool?, start: () -> Task<Void, Never>) throws {
            let id = ObjectIdentifier(channel)
            try state.withLock { state in
                guard !state.isClosed else { throw Closed() }
                state.accepted += 1
                state.noDelay.append(noDelay)
                state.open[id] = (channel, nil)
            }
            let task = start()
            state.withLock { state in state.open[id]?.task = task }
            channel.closeFuture.whenComplete { [self] _ in
                _ = state.withLock { state in state.open.removeValue(forKey: id) }
            }
        }

        /// Marks the listener closed and returns the connections still open.
        func closeAll() -> [(channel: any Channel, task: Task<Void, Never>?)] {
            state.withLock { state in
                state.isClosed = true
                return Array(state.open.values)
            }
        }
    }

    /// Runs a connection's task on its event loop's thread.
    private final class EventLoopTaskExecutor: TaskExecutor {
        let eventLoop: any EventLoop

        init(eventLoop: any EventLoop) {
            self.eventLoop = eventLoop
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    /// Hands what a connection's handlers decode to its task, and ends the stream when the connection closes.
    private final class InboundStream<Inbound: Sendable>: ChannelInboundHandler, Sendable {
        typealias InboundIn = Inbound

        let continuation: AsyncStream<Inbound>.Continuation

        init(continuation: AsyncStream<Inbound>.Continuation) {
            self.continuation = continuation
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            continuation.yield(unwrapInboundIn(data))
        }

        func channelInactive(context: ChannelHandlerContext) {
            continuation.finish()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            continuation.finish()
            context.close(promise: nil)
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            continuation.finish()
        }
    }
}
