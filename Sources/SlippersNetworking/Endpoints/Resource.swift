import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An endpoint and the way to turn its response into a value.
///
/// Loading a resource with ``APIClient/load(_:)`` is `async throws -> A`.
///
/// For example:
///
/// ```swift
/// let post = Resource<Post>(json: Endpoint(.get, "posts/42"))
/// let value = try await client.load(post)
/// ```
public struct Resource<A>: Sendable {
    /// The endpoint to call.
    var endpoint: Endpoint
    /// Turns a successful response into a value; throwing makes the load fail with a decoding error.
    var parse: @Sendable (NetworkResponse) throws -> A

    /// Creates a resource from an endpoint and a parse function.
    public init(endpoint: Endpoint, parse: @escaping @Sendable (NetworkResponse) throws -> A) {
        self.endpoint = endpoint
        self.parse = parse
    }

    /// The same resource with its endpoint changed.
    func mappingEndpoint(_ transform: (Endpoint) -> Endpoint) -> Resource<A> {
        Resource(endpoint: transform(endpoint), parse: parse)
    }

    /// A resource whose value is the parsed value transformed.
    public func map<B>(_ transform: @escaping @Sendable (A) throws -> B) -> Resource<B> {
        let parse = self.parse
        return Resource<B>(endpoint: endpoint) { try transform(parse($0)) }
    }
}

extension Resource where A: Decodable & Sendable {
    /// A resource decoded from JSON with `JsonProvider`; JSON headers are added to the endpoint.
    public init(json endpoint: Endpoint) {
        self.init(endpoint: endpoint.addingJSONHeaders()) { response in
            try JsonProvider.decode(A.self, from: response.body)
        }
    }
}

extension Resource where A == Data {
    /// A resource whose value is the response body.
    public init(data endpoint: Endpoint) {
        self.init(endpoint: endpoint) { $0.body }
    }
}

extension Resource where A == NetworkResponse {
    /// A resource whose value is the whole response: status, headers and body.
    public init(response endpoint: Endpoint) {
        self.init(endpoint: endpoint) { $0 }
    }
}
