import Foundation
import Slippers
import SlippersNetworking
import Testing

@Suite struct EndpointTests {
    private let configuration = ServerConfiguration(host: "api.test")

    @Test func jsonHeadersAreAddedAndContentTypeOnlyWithABody() throws {
        let get = Endpoint(.get, "posts").addingJSONHeaders()
        #expect(get.headers == ["Accept": "application/json"])
        struct New: Encodable { var title: String }
        let post = try Endpoint(.post, "posts").withJSONBody(New(title: "Hi"))
        #expect(post.headers["Content-Type"] == "application/json")
        let request = try post.urlRequest(in: configuration)
        #expect(request.httpMethod == "POST")
        #expect(request.httpBody == Data(#"{"title":"Hi"}"#.utf8))
    }

    @Test func queryItemsAreSetAppendedAndReplaced() throws {
        let endpoint = Endpoint(.get, "items", query: ["b": "2", "a": "1"])
            .settingQueryItem("a", to: "3")
            .addingQueryItems([URLQueryItem(name: "c", value: nil)])
            .settingQueryItem("b", to: nil)
        #expect(try endpoint.urlRequest(in: configuration).url?.query == "a=3&c")
    }

    @Test func methodsAreUppercased() {
        #expect(Endpoint.Method(rawValue: "patch") == .patch)
        let custom: Endpoint.Method = "purge"
        #expect(custom.rawValue == "PURGE")
    }

    @Test func resourcesMapTheirValues() async throws {
        let client = APIClient(
            configuration: configuration,
            options: APIClient.Options(transport: StubTransport(.json(#"{"id": 1, "title": "x"}"#))))
        struct Post: Decodable, Sendable {
            var id: ID<Post>
            var title: String
        }
        let titled = Resource<Post>(json: Endpoint(.get, "posts/1")).map(\.title)
        #expect(try await client.load(titled) == "x")
        let response = try await client.load(Resource(response: Endpoint(.get, "posts/1")))
        #expect(response.header("content-type") == "application/json")
    }
}
