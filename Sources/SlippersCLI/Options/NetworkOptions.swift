import ArgumentParser
import Foundation
import SlippersNetworking
import Synchronization

/// The deadlines and the body size limit of every request a command sends.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Seconds to wait for a connection to open (default: \(NetworkOptions.defaults.connectTimeout.seconds)).",
            valueName: "seconds"))
    var connectTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "Seconds to wait for the next byte of a response before giving up "
                + "(default: \(NetworkOptions.defaults.idleTimeout.seconds)).",
            valueName: "seconds"))
    var idleTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "Seconds a whole request may take, from connecting to its last byte "
                + "(default: \(NetworkOptions.defaults.deadline.seconds)).",
            valueName: "seconds"))
    var deadline: Double?

    @Option(
        help: ArgumentHelp(
            "The largest response body, after decompression, in bytes or with a unit such as 500KB, 64MB, 1GB "
                + "(default: 64MB).",
            valueName: "size"))
    var maxBodySize: ByteSize?

    @Option(
        name: .customLong("cacert"),
        help: ArgumentHelp(
            "A PEM file of CA certificates to trust for https instead of the system's, for a private CA "
                + "(default: $SSL_CERT_FILE when set, else the system's).",
            valueName: "file"))
    var caCertificates: String?

    /// The library's defaults, which the help text states.
    static let defaults = AsyncHTTPClientTransport.Configuration.default

    func validate() throws {
        for (name, value) in [
            ("--connect-timeout", connectTimeout), ("--idle-timeout", idleTimeout), ("--deadline", deadline),
        ] {
            if let value, !(value > 0 && value <= 86_400) {
                throw ValidationError("\(name) takes a number of seconds above 0 and at most 86400.")
            }
        }
    }

    /// The transport configuration: the options given, the library's defaults for the others.
    var configuration: AsyncHTTPClientTransport.Configuration {
        configuration(environment: ProcessInfo.processInfo.environment)
    }

    /// The transport configuration, reading `SSL_CERT_FILE` from `environment` when `--cacert` is not given:
    /// OpenSSL, curl and Python read it for the CAs to trust.
    func configuration(environment: [String: String]) -> AsyncHTTPClientTransport.Configuration {
        AsyncHTTPClientTransport.Configuration(
            connectTimeout: connectTimeout, idleTimeout: idleTimeout, deadline: deadline,
            maxBodySize: maxBodySize?.bytes,
            caCertificates: caCertificates, environment: environment)
    }

    /// A transport with these limits: the library's shared one when no option was given, else
    /// one made once per configuration in the process.
    func transport(environment: [String: String] = ProcessInfo.processInfo.environment) -> any HTTPTransport {
        AsyncHTTPClientTransport.shared(for: configuration(environment: environment))
    }
}

/// A size given on the command line: bytes, or a number with a unit (`KB`, `MB`, `GB`, powers of 1024).
struct ByteSize: ExpressibleByArgument, Equatable {
    /// The size in bytes.
    var bytes: Int

    init(bytes: Int) {
        self.bytes = bytes
    }

    init?(argument: String) {
        let units: [String: Int] = [
            "": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "G": 1 << 30, "GB": 1 << 30,
        ]
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = text.prefix { $0.isNumber }
        guard let value = Int(digits), value > 0, let scale = units[String(text.dropFirst(digits.count))],
            value <= Int.max / scale
        else { return nil }
        bytes = value * scale
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension Duration {
    /// Whole seconds, for help texts.
    fileprivate var seconds: Int64 { components.seconds }
}
