import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP call of an API, relative to a ``ServerConfiguration``: method, path, query, headers and body.
///
/// An endpoint may carry a stubbed response, returned instead of a network
/// call when stubbing is on for the configuration or for this endpoint.
///
/// For example:
///
/// ```swift
/// let posts = Endpoint(.get, "posts", query: ["page": "2"]).addingJSONHeaders()
/// let create = try Endpoint(.post, "posts").withJSONBody(newPost)
/// ```
public struct Endpoint: Sendable {
    /// The HTTP method.
    var method: Method
    /// The path under the configuration's API route, such as `posts/42`.
    public var path: String
    /// The query items, in order.
    package var queryItems: [URLQueryItem]
    /// The request headers.
    public var headers: [String: String]
    /// The request body.
    public var body: Body
    /// The response to answer with when stubbing is on.
    var stub: StubResponse?
    /// Whether this endpoint answers with its stub even when the configuration does not stub.
    var shouldStub: Bool

    /// Creates an endpoint.
    public init(
        _ method: Method = .get,
        _ path: String,
        queryItems: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: Body = .none,
        stub: StubResponse? = nil,
        shouldStub: Bool = false
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.stub = stub
        self.shouldStub = shouldStub
    }

    /// Creates an endpoint whose query is given as a dictionary, sorted by name.
    public init(_ method: Method = .get, _ path: String, query: [String: String], headers: [String: String] = [:]) {
        self.init(
            method, path,
            queryItems: query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) },
            headers: headers)
    }

    /// An HTTP method.
    public struct Method: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        /// The method's name, such as `GET`.
        public var rawValue: String

        /// Creates a method from its name.
        public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

        /// Creates a method from its name.
        public init(stringLiteral value: String) { self.init(rawValue: value) }

        /// `GET`.
        public static let get = Method(rawValue: "GET")
        /// `POST`.
        public static let post = Method(rawValue: "POST")
        /// `PUT`.
        public static let put = Method(rawValue: "PUT")
        /// `PATCH`.
        public static let patch = Method(rawValue: "PATCH")
        /// `DELETE`.
        public static let delete = Method(rawValue: "DELETE")
        /// `HEAD`.
        public static let head = Method(rawValue: "HEAD")
    }

    /// The body of a request.
    public enum Body: Sendable, Equatable {
        /// No body.
        case none
        /// Bytes held in memory.
        case data(Data)
        /// The contents of a file, streamed from disk as the request is sent.
        case file(URL)
    }
}
