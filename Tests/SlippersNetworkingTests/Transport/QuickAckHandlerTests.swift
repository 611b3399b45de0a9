import Foundation
import LocalAPI
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

@testable import SlippersNetworking

#if os(Linux)
    /// The quick-ACK handler on a real connection to a server that writes head and body apart without `TCP_NODELAY`.
    ///
    /// What these tests check is what the handler does: it sets `TCP_QUICKACK` after
    /// every flush of a request and every read of a response. A probe beside it clears the
    /// option (delayed-ACK mode) before each flush and each read, and reads it right after
    /// the handler ran, with no I/O in between: the kernel reports what was last set. Whether the kernel would have delayed its ACKs without the
    /// handler depends on its heuristics and the machine's load: the benchmark measures
    /// that stall, where a figure may vary; no test depends on it.
    @Suite struct QuickAckHandlerTests {
        @Test func theOptionIsSetAfterEveryFlushAndEveryRead() async throws {
            let (flushes, reads) = try await modes(requests: 10, quickAck: true)
            #expect(flushes.count >= 10)
            #expect(flushes.allSatisfy { $0 == true }, "\(flushes)")
            #expect(reads.count >= 10)
            #expect(reads.allSatisfy { $0 == true }, "\(reads)")
        }

        @Test func withoutTheHandlerTheClearedOptionStaysCleared() async throws {
            let (flushes, reads) = try await modes(requests: 3, quickAck: false)
            #expect(flushes.count >= 3 && reads.count >= 3)
            #expect((flushes + reads).allSatisfy { $0 == false }, "\(flushes) \(reads)")
        }

        /// Sends `requests` GETs one after another over one connection; returns the option as read
        /// right after each flush and each read completed, the handler (when installed) having run.
        private func modes(requests: Int, quickAck: Bool) async throws -> (flushes: [Bool?], reads: [Bool?]) {
            var configuration = FixtureServer.Configuration()
            configuration.noDelay = false
            return try await withFixtureServer(configuration) { server in
                let probe = AfterHandlerProbe()
                let responses = ResponseEnds()
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            let pipeline = channel.pipeline.syncOperations
                            try pipeline.addHandler(probe, position: .first)
                            if quickAck { try pipeline.addHandler(QuickAckHandler(), position: .first) }
                            try pipeline.addHTTPClientHandlers()
                            try pipeline.addHandler(responses)
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
                return (probe.afterFlushes, probe.afterReads)
            }
        }
    }

    /// Clears the socket's quick-ACK mode before a flush or a read, and reads it right after the
    /// handler nearer the socket handled it.
    ///
    /// It sits on the application's side of the handler: a flush passes through it first
    /// and returns to it after the handler's; a read reaches it before the read completes
    /// through the handler.
    private final class AfterHandlerProbe: ChannelDuplexHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = ByteBuffer
        private let flushes = Mutex<[Bool?]>([])
        private let reads = Mutex<[Bool?]>([])

        var afterFlushes: [Bool?] { flushes.withLock { $0 } }
        var afterReads: [Bool?] { reads.withLock { $0 } }

        func flush(context: ChannelHandlerContext) {
            Self.clear(context)
            context.flush()
            let value = Self.mode(context)
            flushes.withLock { $0.append(value) }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            Self.clear(context)
            context.fireChannelRead(data)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            let value = Self.mode(context)
            reads.withLock { $0.append(value) }
            context.fireChannelReadComplete()
        }

        private static func clear(_ context: ChannelHandlerContext) {
            try? context.channel.syncOptions?.setOption(QuickAckHandler.option, value: 0)
        }

        private static func mode(_ context: ChannelHandlerContext) -> Bool? {
            guard context.channel.isActive else { return nil }
            return (try? context.channel.syncOptions?.getOption(QuickAckHandler.option)).map { $0 != 0 }
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
