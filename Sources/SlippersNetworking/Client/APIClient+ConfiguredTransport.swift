import Foundation
import Slippers
import Synchronization

extension APIClient {
    /// A transport with these limits, each in seconds or bytes, `nil` for the default: the shared
    /// ``defaultTransport`` when none is given, else one made once per configuration in the process
    /// (a worker syncs list after list: a transport per list would read the CA file and hold a
    /// connection pool each time).
    ///
    /// `SSL_CERT_FILE` in `environment` names the CAs to trust when `caCertificates` does not, as
    /// OpenSSL, curl and Python read it. On a platform without async-http-client (iOS and the
    /// like) the limits are the system's and ``defaultTransport`` is returned.
    public static func transport(
        connectTimeout: Double? = nil, idleTimeout: Double? = nil, deadline: Double? = nil, maxBodySize: Int? = nil,
        caCertificates: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any HTTPTransport {
        #if canImport(AsyncHTTPClient)
            AsyncHTTPClientTransport.shared(
                for: AsyncHTTPClientTransport.Configuration(
                    connectTimeout: connectTimeout, idleTimeout: idleTimeout, deadline: deadline,
                    maxBodySize: maxBodySize, caCertificates: caCertificates, environment: environment))
        #else
            defaultTransport
        #endif
    }
}

#if canImport(AsyncHTTPClient)
    extension AsyncHTTPClientTransport {
        /// The transport of `configuration`: ``shared`` for the defaults, else one made once per
        /// configuration in the process.
        public static func shared(for configuration: Configuration) -> AsyncHTTPClientTransport {
            guard configuration != .default else { return shared }
            return configuredTransports.withLock { made in
                if let transport = made.first(where: { $0.configuration == configuration })?.transport {
                    return transport
                }
                let transport = AsyncHTTPClientTransport(configuration: configuration)
                made.append((configuration, transport))
                return transport
            }
        }

        /// The transports made for configurations other than the defaults, for the process's life.
        private static let configuredTransports = Mutex<
            [(configuration: Configuration, transport: AsyncHTTPClientTransport)]
        >([])
    }

    extension AsyncHTTPClientTransport.Configuration {
        /// The configuration of these limits, each in seconds or bytes, `nil` for the default;
        /// `SSL_CERT_FILE` in `environment` names the CAs to trust when `caCertificates` does not.
        public init(
            connectTimeout: Double?, idleTimeout: Double?, deadline: Double?, maxBodySize: Int?,
            caCertificates: String?, environment: [String: String]
        ) {
            let defaults = Self.default
            let duration = { (seconds: Double) in Duration.milliseconds(Int64((seconds * 1000).rounded())) }
            let environmentCertificates = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
            self.init(
                connectTimeout: connectTimeout.map(duration) ?? defaults.connectTimeout,
                idleTimeout: idleTimeout.map(duration) ?? defaults.idleTimeout,
                deadline: deadline.map(duration) ?? defaults.deadline,
                maxBodySize: maxBodySize ?? defaults.maxBodySize,
                certificateAuthorityFile: caCertificates ?? environmentCertificates)
        }
    }
#endif
