import Foundation
import InMemoryLogging
import Logging
import Testing

@testable import SlippersNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct APIClientLoggingTests {
    let handler = InMemoryLogHandler()

    var logger: Logger {
        var logger = Logger(label: "test", factory: { [handler] _ in handler })
        logger.logLevel = .trace
        return logger
    }

    func client(_ transport: ScriptedTransport, authenticator: (any HTTPAuthenticator)? = nil) -> APIClient {
        APIClient(
            configuration: ServerConfiguration(host: "api.test"),
            options: APIClient.Options(
                transport: transport, retryPolicy: quickRetries, authenticator: authenticator,
                sleep: SleepRecorder().sleep, logger: logger))
    }

    /// Every entry as one line: level, message, metadata.
    var lines: [String] {
        handler.entries.map { entry in
            let fields = (entry.metadata).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return (["\(entry.level)", "\(entry.message)"] + fields).joined(separator: " ")
        }
    }

    @Test func anExchangeIsLoggedAtDebugWithoutItsCredentials() async throws {
        let transport = ScriptedTransport(StubResponse(statusCode: 200, body: Data("{}".utf8)))
        let auth = BearerTokenAuthenticator(token: "s3cr3t-bearer") { "renewed" }
        var request = URLRequest(url: URL(string: "https://api.test/posts?page=2&access_token=s3cr3t-query")!)
        request.setValue("s3cr3t-key", forHTTPHeaderField: "X-Api-Key")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        _ = try await client(transport, authenticator: auth).send(request)

        let exchange = try #require(handler.entries.first { $0.message == "HTTP exchange" })
        #expect(exchange.level == .debug)
        #expect(exchange.metadata["method"] == "GET")
        #expect(exchange.metadata["status"] == "200")
        #expect(exchange.metadata["elapsed_ms"] != nil)
        #expect(exchange.metadata["url"] == "https://api.test/posts?page=2&access_token=***")
        let headers = "\(exchange.metadata["request_headers"] ?? "")"
        #expect(headers.contains("Accept: application/json"))
        #expect(headers.contains("Authorization: <redacted>"))
        #expect(headers.contains("X-Api-Key: <redacted>"))
        #expect(!lines.joined().contains("s3cr3t"))
    }

    @Test func aRetryIsLoggedAtInfo() async throws {
        let transport = ScriptedTransport(StubResponse(statusCode: 503), StubResponse(statusCode: 200))
        _ = try await client(transport).response(for: Endpoint(.get, "posts"))
        let retry = try #require(handler.entries.first { $0.message == "retrying" })
        #expect(retry.level == .info)
        #expect(retry.metadata["attempt"] == "1")
        #expect("\(retry.metadata["error"] ?? "")".contains("503"))
        #expect(handler.entries.filter { $0.message == "HTTP exchange" }.count == 2)
    }

    @Test func aCredentialRenewalAfter401IsLoggedAtInfo() async throws {
        let transport = ScriptedTransport(StubResponse(statusCode: 401), StubResponse(statusCode: 200))
        let auth = BearerTokenAuthenticator(token: "s3cr3t-old") { "s3cr3t-new" }
        _ = try await client(transport, authenticator: auth).response(for: Endpoint(.get, "posts"))
        let renewal = try #require(handler.entries.first { $0.message == "renewing credentials after 401" })
        #expect(renewal.level == .info)
        #expect(!lines.joined().contains("s3cr3t"))
    }

    @Test func aRedirectFollowedIsLoggedWithItsHop() async throws {
        let transport = ScriptedTransport(
            StubResponse(statusCode: 302, headers: ["Location": "/v2/posts?signature=s3cr3t-sig"]),
            StubResponse(statusCode: 200))
        _ = try await client(transport).response(for: Endpoint(.get, "posts"))
        let redirect = try #require(handler.entries.first { $0.message == "following redirect" })
        #expect(redirect.level == .debug)
        #expect(redirect.metadata["hop"] == "1")
        #expect(redirect.metadata["status"] == "302")
        #expect(redirect.metadata["to"] == "https://api.test/v2/posts?signature=***")
        let hops = handler.entries.filter { $0.message == "HTTP exchange" }.map { $0.metadata["redirect_hop"] }
        #expect(hops == ["0", "1"])
        #expect(!lines.joined().contains("s3cr3t"))
    }

    @Test func credentialHeadersAreRecognisedByName() {
        for name in ["Authorization", "proxy-authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "Api-Secret"] {
            #expect(APIClient.isCredential(header: name), "\(name)")
        }
        for name in ["Accept", "Accept-Language", "If-None-Match", "User-Agent"] {
            #expect(!APIClient.isCredential(header: name), "\(name)")
        }
    }
}
