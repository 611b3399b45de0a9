import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `Accept` header for servers that answer `406 Not Acceptable` to `application/json`.
///
/// JSON:API servers serve `application/vnd.api+json`, HAL servers `application/hal+json`; some
/// negotiate strictly and refuse a plain `application/json`. A request that asked for
/// `application/json` alone and got a `406` is sent once more asking for the JSON family, and
/// the origin is remembered for the rest of the process, so later requests ask for the family at once.
enum JSONMediaTypes {
    /// The JSON media types asked for after a `406`, without parameters (JSON:API refuses its type with them).
    static let family =
        "application/vnd.api+json, application/hal+json, application/ld+json, application/problem+json, "
        + "application/json, text/json, */*"

    /// The origins (scheme, host, port) that answered `406` to `application/json` in this process.
    private static let refusingOrigins = Mutex<Set<String>>([])

    /// Whether a request asks for `application/json` and nothing else.
    static func asksJSONOnly(_ request: URLRequest) -> Bool {
        guard var accept = request.value(forHTTPHeaderField: "Accept")?[...] else { return false }
        // Optional whitespace around a field value is spaces and tabs (RFC 9110, 5.6.3).
        while accept.first == " " || accept.first == "\t" { accept.removeFirst() }
        while accept.last == " " || accept.last == "\t" { accept.removeLast() }
        return accept.equalsIgnoringASCIICase("application/json")
    }

    /// Whether the origin of `url` answered `406` to `application/json` before.
    static func refusesPlainJSON(_ url: URL?) -> Bool {
        guard !refusingOrigins.withLock({ $0.isEmpty }), let key = url.flatMap(Origin.init)?.description else {
            return false
        }
        return refusingOrigins.withLock { $0.contains(key) }
    }

    /// Remembers that the origin of `url` answered `406` to `application/json`.
    static func noteRefusal(_ url: URL?) {
        guard let key = url.flatMap(Origin.init)?.description else { return }
        refusingOrigins.withLock { _ = $0.insert(key) }
    }
}
