import Foundation
import SlippersNetworking
import Testing

@Suite struct ServerConfigurationTests {
    @Test func switchingServersChangesOneValueNotTheEndpoints() throws {
        let endpoint = Endpoint(.get, "/posts/", queryItems: [URLQueryItem(name: "q", value: "a b")])
        let production = ServerConfiguration(host: "api.example.com", apiRoute: "/v2/")
        let staging = ServerConfiguration(host: "staging.example.com", apiRoute: "v2")
        let test = ServerConfiguration(scheme: "http", host: "127.0.0.1", port: 8080, apiRoute: "v2")
        #expect(
            try endpoint.urlRequest(in: production).url?.absoluteString == "https://api.example.com/v2/posts?q=a%20b")
        #expect(
            try endpoint.urlRequest(in: staging).url?.absoluteString == "https://staging.example.com/v2/posts?q=a%20b")
        #expect(try endpoint.urlRequest(in: test).url?.absoluteString == "http://127.0.0.1:8080/v2/posts?q=a%20b")
    }

    @Test func aBaseURLBecomesAConfiguration() throws {
        let configuration = try #require(ServerConfiguration(baseURL: URL(string: "http://127.0.0.1:9000/api")!))
        #expect(configuration.port == 9000)
        #expect(configuration.baseURL?.absoluteString == "http://127.0.0.1:9000/api")
        #expect(try configuration.url(path: "items").absoluteString == "http://127.0.0.1:9000/api/items")
        #expect(ServerConfiguration(baseURL: URL(string: "file:///x")!) == nil)
    }

    @Test func stubbingIsOneSwitch() {
        let configuration = ServerConfiguration(host: "api.example.com")
        #expect(!configuration.shouldStub)
        #expect(configuration.stubbing().shouldStub)
        #expect(!configuration.stubbing().stubbing(false).shouldStub)
    }
}
