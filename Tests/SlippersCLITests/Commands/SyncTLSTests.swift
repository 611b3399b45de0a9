import Foundation
import SlippersFixtures
import SlippersTestSupport
import Testing

/// `sync` and `detect` against an https server whose certificate a private CA signed.
@Suite struct SyncTLSTests {
    @Test func anUntrustedCertificateIsOneLineAtOnceAndCacertTrustsTheCA() async throws {
        let server = try await TLSFixtureServer.start()
        let directory = try TemporaryDirectory()
        let authority = directory.path("ca.pem")
        try Data(TestCertificates.authority.utf8).write(to: URL(fileURLWithPath: authority))
        let url = server.url.absoluteString

        let refused = try await BuiltBinary.slippers.run(
            ["sync", url, "--db", directory.path()], environment: ["SSL_CERT_FILE": ""])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("slippers: The server's TLS certificate was not accepted (GET \(url))"))
        #expect(!refused.stderr.contains("BoringSSL") && !refused.stderr.contains(".build"))

        let trusted = try await BuiltBinary.slippers.run(["sync", url, "--cacert", authority, "--db", directory.path()])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout.hasPrefix("synced 2 items in 1 page of "), "\(trusted.stdout)")

        let detected = try await BuiltBinary.slippers.run(["detect", url], environment: ["SSL_CERT_FILE": authority])
        #expect(detected.status == 0, "\(detected.stderr)")
        #expect(detected.stdout.contains("next URL"), "\(detected.stdout)")
        await server.stop()
    }
}
