import Foundation
import Slippers

extension APIClient {
    /// The transport a client uses unless it is given one.
    ///
    /// On Linux it is ``AsyncHTTPClientTransport/shared``: its requests have
    /// deadlines and a body size limit, and waiting costs no CPU, where the
    /// Linux `URLSession` busy-polls. On Apple platforms it is
    /// ``URLSessionTransport/shared``, the system's own stack.
    public static var defaultTransport: any HTTPTransport {
        #if canImport(Darwin)
            URLSessionTransport.shared
        #else
            AsyncHTTPClientTransport.shared
        #endif
    }
}
