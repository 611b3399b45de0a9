// Linux and macOS only: see `nioPlatforms` in Package.swift.
#if canImport(AsyncHTTPClient)

    internal import NIOCore

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    #if os(Linux)
        /// Keeps a kept-alive connection acknowledging at once, so that a response written in two parts is not held up.
        ///
        /// Many servers write a response's head and its body apart, and some
        /// (Python's `http.server`, among others) do so without `TCP_NODELAY`:
        /// Nagle's algorithm then holds the body until the head is acknowledged.
        /// A fresh Linux connection acknowledges at once, but once it has sent a
        /// request soon after receiving a response, the kernel takes it for an
        /// interactive ("ping-pong") exchange and delays its ACKs by 40 ms or more,
        /// hoping to carry them on the next request. Every response after the
        /// first would then wait for that delayed ACK, which a client opening a
        /// connection per request never meets.
        ///
        /// Setting `TCP_QUICKACK` takes the socket out of that mode until the
        /// kernel decides again, which it does each time the socket sends. So
        /// this handler sets it after every flush, once the request has been
        /// written and before its response can arrive; the head is then
        /// acknowledged as it arrives, or at the latest as it is read. It sets it
        /// again after every read, for a response that arrived before that
        /// (`setsockopt` then sends the pending ACK itself). It sits first in the
        /// pipeline, next to the socket, and costs one system call per flush and
        /// per read; connections stay kept alive, so nothing is spent on new
        /// handshakes. Against servers that set `TCP_NODELAY` it only sends a few
        /// ACKs sooner.
        final class QuickAckHandler: ChannelDuplexHandler {
            typealias InboundIn = ByteBuffer
            typealias OutboundIn = ByteBuffer

            /// `TCP_QUICKACK` at the TCP level.
            static let option = ChannelOptions.tcpOption(NIOBSDSocket.Option(rawValue: CInt(TCP_QUICKACK)))

            /// False once the socket refused the option: it is not asked again.
            private var isEnabled = true

            /// Adds the handler first in a connection's pipeline; a channel that cannot take it is left as it is.
            static func install(on channel: any Channel) -> EventLoopFuture<Void> {
                channel.eventLoop.submit {
                    _ = try? channel.pipeline.syncOperations.addHandler(QuickAckHandler(), position: .first)
                }
            }

            func flush(context: ChannelHandlerContext) {
                context.flush()
                rearm(context)
            }

            func channelReadComplete(context: ChannelHandlerContext) {
                rearm(context)
                context.fireChannelReadComplete()
            }

            private func rearm(_ context: ChannelHandlerContext) {
                guard isEnabled, context.channel.isActive else { return }
                do {
                    try context.channel.syncOptions?.setOption(Self.option, value: 1)
                } catch {
                    isEnabled = false
                }
            }
        }
    #endif

#endif
