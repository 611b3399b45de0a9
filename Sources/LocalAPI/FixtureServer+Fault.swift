extension FixtureServer {
    /// A misbehaviour to inject into the next requests, with ``FixtureServer/inject(_:count:)``.
    public enum Fault: Sendable, Equatable {
        /// Answer with this status, headers and body instead of the page (such as
        /// `500`, `503` with `Retry-After`, `401`, `429`).
        case status(Int, headers: [String: String] = [:], body: String = "")
        /// Send the headers and part of the body, then close the connection.
        case dropConnection
        /// Answer `200` with the first half of the page's JSON.
        case truncatedJSON
        /// Wait this long, then answer normally.
        case delay(Duration)
        /// Answer normally, but with a next cursor or next URL equal to the request's own.
        case nonAdvancing

        /// `503 Service Unavailable` with `Retry-After: seconds`.
        public static func unavailable(retryAfter seconds: Int) -> Fault {
            .status(503, headers: ["Retry-After": String(seconds)], body: #"{"error":"unavailable"}"#)
        }

        /// `429 Too Many Requests` with `Retry-After: seconds`.
        public static func tooManyRequests(retryAfter seconds: Int) -> Fault {
            .status(429, headers: ["Retry-After": String(seconds)], body: #"{"error":"slow down"}"#)
        }
    }
}
