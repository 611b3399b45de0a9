import Foundation

extension FixtureServer {
    /// A request the server received, as tests look at it.
    public struct ReceivedRequest: Sendable, Equatable {
        /// The method, such as `GET`.
        public var method: String
        /// The path, such as `/page`.
        public var path: String
        /// The query items, by name (the last one wins).
        public var query: [String: String]
        /// The request headers, each name with its words capitalised (`If-None-Match`, `X-Api-Key`).
        public var headers: [String: String]
        /// The number of bytes in the request body.
        public var bodyLength: Int
        /// The request body, for requests other than `GET`; empty for those.
        public var body: Data

        /// Creates a record.
        public init(
            method: String, path: String, query: [String: String], headers: [String: String], bodyLength: Int = 0,
            body: Data = Data()
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.bodyLength = bodyLength
            self.body = body
        }

        /// The JSON object of the request body, if it is one.
        public var jsonBody: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        }

        /// The `If-None-Match` header, if any.
        public var ifNoneMatch: String? { headers["If-None-Match"] }
        /// The `If-Modified-Since` header, if any.
        public var ifModifiedSince: String? { headers["If-Modified-Since"] }
        /// Whether the request was conditional (`If-None-Match` or `If-Modified-Since`).
        public var isConditional: Bool { ifNoneMatch != nil || ifModifiedSince != nil }
        /// The `Authorization` header, if any.
        public var authorization: String? { headers["Authorization"] }
    }
}
