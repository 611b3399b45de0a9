import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SlippersFixtures
import Synchronization
import Testing

@testable import SlippersNetworking

#if os(Linux)
    /// The quick-ACK handler on a real connection to a server that writes head and body apart without `TCP_NODELAY`.
    ///
    /// A probe next to the socket reads `TCP_QUICKACK` as each response's bytes
    /// are read, before anything else sees them; the client sends nothing while
    /// it waits for a response, so nothing but the handler changes the mode in
    /// between. Out of delayed-ACK ("ping-pong") mode, the kernel acknowledges
    /// the head at once, or at the latest as it is read, and the body follows;
    /// in it, the body waits for the delayed ACK.
    @Suite struct QuickAckHandlerTests {
        @Test func everyResponseOfAKeptAliveConnectionArrivesInQuickAckMode() async throws {
            let modes = try await arrivalModes(requests: 10, quickAck: true)
            #expect(modes.count >= 10)
            #expect(modes.allSatisfy { $0 == true })
        }

        /// Why the handler exists: without it, the kernel takes the exchange for an interactive one and delays its ACKs.
        @Test func withoutItAKeptAliveConnectionReceivesInDelayedAckMode() async throws {
            let modes = try await arrivalModes(requests: 10, quickAck: false)
            #expect(modes.contains(false))
        }

        /// Sends `requests` GETs one after another over one connection and returns the mode each read arrived in.
        private func arrivalModes(requests: Int, quickAck: Bool) async throws -> [Bool?] {
            var configuration = FixtureServer.Configuration()
            configuration.noDelay = false
            return try await withFixtureServer(configuration) { server in
                let probe = ArrivalProbe()
                let responses = ResponseEnds()
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            let pipeline = channel.pipeline.syncOperations
                            try pipeline.addHTTPClientHandlers()
                            try pipeline.addHandler(responses)
                            if quickAck { try pipeline.addHandler(QuickAckHandler(), position: .first) }
                            try pipeline.addHandler(probe, position: .first)
                        }
                    }
                    .connect(host: "127.0.0.1", port: server.port).get()
                for page in 1...requests {
                    let ended = channel.eventLoop.makePromise(of: Void.self)
                    responses.expect(ended)
                    var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/page?page=\(page % 5 + 1)")
                    head.headers.add(name: "Host", value: "127.0.0.1:\(server.port)")
                    channel.write(HTTPClientRequestPart.head(head), promise: nil)
                    try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
                    try await ended.futureResult.get()
                }
                try await channel.close().get()
                #expect(server.requestCount == requests)
                return probe.modes
            }
        }
    }

    /// Reads the socket's quick-ACK mode as bytes arrive, before the handlers behind it run.
    private final class ArrivalProbe: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let recorded = Mutex<[Bool?]>([])

        var modes: [Bool?] { recorded.withLock { $0 } }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let value = try? context.channel.syncOptions?.getOption(QuickAckHandler.option)
            recorded.withLock { $0.append(value.map { $0 != 0 }) }
            context.fireChannelRead(data)
        }
    }

    /// Fulfils one waiting promise per response, when its end arrives.
    private final class ResponseEnds: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPClientResponsePart
        private let waiting = Mutex<[EventLoopPromise<Void>]>([])

        func expect(_ promise: EventLoopPromise<Void>) {
            waiting.withLock { $0.append(promise) }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            let next = waiting.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            next?.succeed()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let pending = waiting.withLock { promises in
                defer { promises.removeAll() }
                return promises
            }
            for promise in pending { promise.fail(error) }
            context.close(promise: nil)
        }
    }
#endif
