import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Nagle's algorithm off for the connections a listening socket accepts.
///
/// FlyingFox writes a response's head and body in two writes. With Nagle's
/// algorithm on, the body waits for the client to acknowledge the head, which
/// the client delays by up to 40 ms: every request over loopback then costs
/// about 48 ms. FlyingFox does not expose its listening socket, so this finds
/// it among the process's open descriptors by its port and sets `TCP_NODELAY`
/// on it; Linux copies the option to every connection the socket accepts.
enum ListenerNoDelay {
    /// Sets `TCP_NODELAY` on the IPv4 socket listening on `port`; returns whether one was found and set.
    @discardableResult
    static func enable(onPort port: UInt16) -> Bool {
        guard let descriptor = listener(onPort: port) else { return false }
        var on: Int32 = 1
        return setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Whether the IPv4 socket listening on `port` has `TCP_NODELAY` set; `nil` when none is found.
    static func isEnabled(onPort port: UInt16) -> Bool? {
        guard let descriptor = listener(onPort: port) else { return nil }
        var value: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &size) == 0 else { return nil }
        return value != 0
    }

    /// The descriptor of this process's IPv4 socket listening on `port`, found through `/proc/self/fd` (Linux).
    private static func listener(onPort port: UInt16) -> Int32? {
        #if os(Linux)
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
                return nil
            }
            return entries.compactMap(Int32.init).first { isListener($0, port: port) }
        #else
            return nil
        #endif
    }

    /// Whether `descriptor` is an IPv4 socket listening on `port`.
    private static func isListener(_ descriptor: Int32, port: UInt16) -> Bool {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0, Int32(address.sin_family) == AF_INET, UInt16(bigEndian: address.sin_port) == port else {
            return false
        }
        var accepting: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &size) == 0 && accepting != 0
    }
}
