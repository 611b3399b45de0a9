import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A socket bound to a port of 127.0.0.1 and never listening: while it is held, no socket of the
/// machine that asks for any free port is given this one.
///
/// A fixture server takes its port through a reservation before it listens, and holds it for its
/// whole life: its listener binds the same port beside it (both set `SO_REUSEADDR`, and Linux lets
/// a listener share a port with bound sockets that do not listen). Once the listener closes,
/// connections to the port are refused, and no other server can have been given the port, not even
/// in the moment between the close and any later step. So a test of a server that went away
/// (connection refused) never reaches another test's server.
package final class PortReservation: Sendable {
    private let descriptor: Int32
    /// The port held.
    package let port: UInt16

    /// Binds a free port the system chooses; `nil` when no socket can be made or bound.
    package convenience init?() {
        self.init(port: 0)
    }

    /// Binds `port` (0: a free port the system chooses); `nil` when it cannot be bound.
    package init?(port: UInt16) {
        guard let descriptor = LoopbackSocket.make() else { return nil }
        guard Self.bindReusably(descriptor, port: port), let bound = Self.boundPort(of: descriptor) else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.port = bound
    }

    /// Whether a listener binds its port beside the port's reservation, so that the reservation is
    /// held for the server's life: Linux lets a listening socket share a port with bound sockets that
    /// do not listen when all of them set `SO_REUSEADDR`; BSD sockets refuse the second bind, and
    /// there the reservation is given up while the server listens.
    package static var isKeptWhileListening: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    deinit {
        close(descriptor)
    }

    /// Sets `SO_REUSEADDR` on `descriptor` and binds it to `port` of 127.0.0.1; whether it is bound.
    ///
    /// With the option set, the socket binds beside a reservation of the port and beside the
    /// connections of an earlier listener still in `TIME_WAIT`.
    static func bindReusably(_ descriptor: Int32, port: UInt16) -> Bool {
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        return LoopbackSocket.withAddress(port: port) { bind(descriptor, $0, $1) } == 0
    }

    /// The port `descriptor` is bound to; `nil` when it cannot be read.
    static func boundPort(of descriptor: Int32) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return named == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }
}
