import Foundation

#if canImport(Glibc)
    import Glibc
#endif

#if os(Linux)
    /// This process's TCP sockets connected to a port on 127.0.0.1, found through `/proc/self/fd`.
    ///
    /// The client's side of a connection is the socket whose peer is the
    /// server's port; the server's accepted sockets have that port as their
    /// own address and are left out.
    enum ConnectedSockets {
        /// The descriptors of the IPv4 sockets whose peer is `port`.
        static func toPort(_ port: Int) -> [Int32] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return entries.compactMap(Int32.init).filter { peerPort(of: $0) == port }
        }

        /// Whether the socket is in quick-ACK mode (`TCP_QUICKACK` reads 1): it acknowledges what it receives at once.
        static func isQuickAck(_ descriptor: Int32) -> Bool? {
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_QUICKACK, &value, &size) == 0 else { return nil }
            return value != 0
        }

        private static func peerPort(of descriptor: Int32) -> Int? {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
            }
            guard named == 0, Int32(address.sin_family) == AF_INET else { return nil }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
#endif
