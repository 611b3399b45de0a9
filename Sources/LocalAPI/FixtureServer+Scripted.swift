import Foundation

extension FixtureServer {
    /// A response a test writes by hand for a path of its own, with ``FixtureServer/script(_:_:)``.
    public struct ScriptedResponse: Sendable {
        /// The status code.
        public var status: Int
        /// The headers, by name.
        public var headers: [String: String]
        /// The body's bytes, sent as they are (a BOM, invalid UTF-8, anything).
        public var body: Data

        /// Creates a response.
        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A `200` with a JSON body.
        public static func json(_ text: String, headers: [String: String] = [:]) -> ScriptedResponse {
            ScriptedResponse(
                status: 200, headers: headers.merging(["Content-Type": "application/json"]) { mine, _ in mine },
                body: Data(text.utf8))
        }

        /// A redirect with this status (301, 302, 303, 307 or 308) to `location`.
        public static func redirect(_ status: Int, to location: String) -> ScriptedResponse {
            ScriptedResponse(status: status, headers: ["Location": location])
        }
    }

    /// Answers requests for `path` with `respond` instead of the fixture API; for hostile and odd servers.
    ///
    /// Requests to a scripted path are recorded and take injected faults like
    /// any other. For example, a next URL on another server:
    ///
    /// ```swift
    /// server.script("/start") { _ in .json(#"{"results": [{"id": 1}], "next": "\(other.url(.next))"}"#) }
    /// ```
    public func script(_ path: String, _ respond: @escaping @Sendable (ReceivedRequest) -> ScriptedResponse) {
        state.withLock { $0.scripts[path] = respond }
    }

    /// Makes every request from now on misbehave at random: each fault with its probability, drawn from a seeded generator.
    ///
    /// For example, 10% each of `500`, dropped connections and cut JSON:
    ///
    /// ```swift
    /// server.injectRandomly([(.status(500), 0.1), (.dropConnection, 0.1), (.truncatedJSON, 0.1)], seed: 7)
    /// ```
    ///
    /// Queued faults (``inject(_:count:)``) come first. An empty list stops the random faults.
    public func injectRandomly(_ faults: [(Fault, Double)], seed: UInt64) {
        state.withLock { state in
            state.randomFaults = faults
            state.random = SplitMix64(seed: seed)
        }
    }
}
