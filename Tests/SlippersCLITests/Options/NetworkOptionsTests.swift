import ArgumentParser
import Foundation
import SlippersNetworking
import Testing

@testable import SlippersCLI

/// The deadline and size options, parsed and turned into a transport configuration.
@Suite struct NetworkOptionsTests {
    @Test func withoutOptionsTheLibraryDefaultsAndTheSharedTransportAreUsed() throws {
        let options = try NetworkOptions.parse([])
        #expect(options.configuration(environment: [:]) == .default)
        #expect(options.transport(environment: [:]) as? AsyncHTTPClientTransport === AsyncHTTPClientTransport.shared)
    }

    @Test func cacertOrElseSSLCertFileNamesTheTrustedCertificates() throws {
        let options = try NetworkOptions.parse([])
        #expect(options.configuration(environment: ["SSL_CERT_FILE": "/a.pem"]).certificateAuthorityFile == "/a.pem")
        #expect(options.configuration(environment: ["SSL_CERT_FILE": ""]).certificateAuthorityFile == nil)
        let given = try NetworkOptions.parse(["--cacert", "/b.pem"])
        #expect(given.configuration(environment: ["SSL_CERT_FILE": "/a.pem"]).certificateAuthorityFile == "/b.pem")
        #expect(given.transport(environment: [:]) as? AsyncHTTPClientTransport !== AsyncHTTPClientTransport.shared)
    }

    @Test func eachOptionSetsItsLimit() throws {
        let options = try NetworkOptions.parse([
            "--connect-timeout", "2", "--idle-timeout", "0.5", "--deadline", "90", "--max-body-size", "8MB",
        ])
        #expect(options.configuration.connectTimeout == .seconds(2))
        #expect(options.configuration.idleTimeout == .milliseconds(500))
        #expect(options.configuration.deadline == .seconds(90))
        #expect(options.configuration.maxBodySize == 8 << 20)
        #expect(options.transport(environment: [:]) as? AsyncHTTPClientTransport !== AsyncHTTPClientTransport.shared)
    }

    @Test func sizesTakeBytesOrAUnit() {
        #expect(ByteSize(argument: "1000")?.bytes == 1000)
        #expect(ByteSize(argument: "500KB")?.bytes == 500 << 10)
        #expect(ByteSize(argument: "64mb")?.bytes == 64 << 20)
        #expect(ByteSize(argument: "2G")?.bytes == 2 << 30)
        for bad in ["", "MB", "-1", "0", "1.5MB", "12 parsecs"] { #expect(ByteSize(argument: bad) == nil, "\(bad)") }
    }

    @Test func nonPositiveDurationsAreRejected() {
        for arguments in [["--deadline", "0"], ["--idle-timeout", "-3"], ["--connect-timeout", "nan"]] {
            #expect(throws: (any Error).self, "\(arguments)") { try NetworkOptions.parse(arguments) }
        }
    }

    @Test func syncTakesTheOptionsAndTheirHelpStatesTheDefaults() throws {
        let sync = try SlippersCommand.Sync.parse(["https://api.example.com/posts", "--deadline", "5"])
        #expect(sync.network.configuration.deadline == .seconds(5))
        let help = SlippersCommand.Sync.helpMessage(columns: 200)
        #expect(help.contains("--connect-timeout <seconds>"))
        #expect(help.contains("(default: 10)"))
        #expect(help.contains("(default: 30)"))
        #expect(help.contains("(default: 120)"))
        #expect(help.contains("(default: 64MB)"))
    }
}
