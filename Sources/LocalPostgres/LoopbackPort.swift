import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ports of 127.0.0.1 as a new server would find them.
public enum LoopbackPort {
    /// Whether a socket that shares with nobody (no `SO_REUSEADDR`) can bind `port` of 127.0.0.1
    /// now: false while any socket of the machine listens on it or holds it bound.
    ///
    /// - throws: `POSIXError` when no socket can be made.
    public static func isFree(_ port: Int) throws -> Bool {
        #if canImport(Glibc)
            let kind = Int32(SOCK_STREAM.rawValue)
        #else
            let kind = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, kind, 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 }
        }
    }
}
