import Foundation
import LocalAPI
import SlippersFixtures
import SlippersNetworking
import SlippersTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// TLS failures are permanent and told in words; a private CA is trusted when named.
@Suite struct TLSTrustTests {
    private let directory: TemporaryDirectory
    private let authorityFile: String

    init() throws {
        directory = try TemporaryDirectory()
        authorityFile = directory.path("ca.pem")
        try Data(TestCertificates.authority.utf8).write(to: URL(fileURLWithPath: authorityFile))
    }

    /// Sends one GET through a client with the default retries; returns the error and the retries made.
    private func failure(
        _ certificate: TLSFixtureServer.Certificate, trusting file: String?
    ) async throws -> (error: NetworkError, retries: Int, requests: Int) {
        let server = try await TLSFixtureServer.start(certificate: certificate)
        let transport = AsyncHTTPClientTransport(configuration: .init(certificateAuthorityFile: file))
        let retries = Mutex(0)
        var client = APIClient(
            configuration: ServerConfiguration(host: "127.0.0.1"), options: APIClient.Options(transport: transport))
        client.onRetry = { _ in retries.withLock { $0 += 1 } }
        client.sleep = { _ in }
        do {
            _ = try await client.send(URLRequest(url: server.url))
            await server.stop()
            Issue.record("the request succeeded")
            throw CancellationError()
        } catch let error as NetworkError {
            await server.stop()
            return (error, retries.withLock { $0 }, server.requestCount)
        }
    }

    @Test func anUntrustedCertificateFailsAtOnceInWords() async throws {
        let (error, retries, requests) = try await failure(.valid, trusting: nil)
        #expect(error.kind == .transport(.tls(.certificateNotTrusted)))
        #expect(!error.isTransient)
        #expect(retries == 0)
        #expect(requests == 0)
        #expect(error.description.hasPrefix("The server's TLS certificate was not accepted (GET https://127.0.0.1:"))
        #expect(error.description.contains("--cacert"))
        for leak in ["BoringSSL", ".build", "checkouts", "handshake.cc"] {
            #expect(!error.description.contains(leak), "\(error.description)")
        }
    }

    @Test func theTrustedAuthorityLetsTheRequestThrough() async throws {
        let server = try await TLSFixtureServer.start(certificate: .valid)
        let transport = AsyncHTTPClientTransport(configuration: .init(certificateAuthorityFile: authorityFile))
        let response = try await transport.send(URLRequest(url: server.url))
        await server.stop()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == TLSFixtureServer.body)
    }

    @Test func anExpiredCertificateIsRefusedEvenFromATrustedAuthority() async throws {
        let (error, retries, _) = try await failure(.expired, trusting: authorityFile)
        #expect(error.kind == .transport(.tls(.certificateNotTrusted)))
        #expect(retries == 0)
    }

    @Test func aCertificateForAnotherNameIsAMismatch() async throws {
        let (error, retries, _) = try await failure(.otherName, trusting: authorityFile)
        #expect(error.kind == .transport(.tls(.hostnameMismatch)), "\(error)")
        #expect(retries == 0)
        #expect(error.description.contains("does not name the host"))
    }

    @Test func anUnreadableAuthorityFileFailsEveryRequestWithItsPath() async throws {
        let missing = directory.path("missing.pem")
        let (error, retries, requests) = try await failure(.valid, trusting: missing)
        #expect(
            error.kind
                == .transport(
                    .tls(.unreadableTrustedCertificates(path: missing, reason: "no such file, or it cannot be read"))))
        #expect(retries == 0)
        #expect(requests == 0)

        let notPEM = directory.path("not.pem")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notPEM))
        let garbage = try await failure(.valid, trusting: notPEM).error
        #expect(garbage.description.hasPrefix("Cannot read trusted certificates from \(notPEM): "), "\(garbage)")
    }

    @Test func anHTTPRequestNeverReadsTheAuthorityFile() async throws {
        let server = FixtureServer()
        try await server.start()
        let transport = AsyncHTTPClientTransport(
            configuration: .init(certificateAuthorityFile: directory.path("missing.pem")))
        let response = try await transport.send(URLRequest(url: server.url(.page)))
        await server.stop()
        #expect(response.statusCode == 200)
    }
}
