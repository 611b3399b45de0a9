import Foundation
import Synchronization

/// A list of numbered pages behind a rate limit of `limit` requests per `window` seconds, scripted on a fixture server.
///
/// Windows are aligned on multiples of `window` in epoch seconds, so that a reset given in whole
/// seconds is exact. ``Style/gitHub`` answers with `X-RateLimit-*` and refuses with `403` and
/// remaining 0; ``Style/ietf`` with `RateLimit`/`RateLimit-Policy` and refuses with `429` and `Retry-After`;
/// ``Style/retryAfterDate`` says nothing of its budget and refuses with `429` and `Retry-After` as an HTTP date.
public final class RateLimitedList: Sendable {
    /// How the server says its budget and refuses a request past it.
    public enum Style: Sendable {
        /// `X-RateLimit-Limit/Remaining/Reset`, and `403` with remaining 0 when spent, as GitHub does.
        case gitHub
        /// The IETF `RateLimit` and `RateLimit-Policy` fields, and `429` with `Retry-After` when spent.
        case ietf
        /// No budget fields; `429` with `Retry-After` as an HTTP date (the window's end) when spent, as
        /// servers behind a proxy that counts requests do.
        case retryAfterDate
    }

    public let style: Style
    public let limit: Int
    public let window: Int
    public let pages: Int
    public let pageSize = 10

    private struct State {
        var windowIndex = -1
        var used = 0
        var refused = 0
        var served = 0
        var arrivals: [Date] = []
        var waitedWindows = 0
    }

    private let state = Mutex(State())

    public init(_ style: Style, limit: Int, window: Int, pages: Int) {
        self.style = style
        self.limit = limit
        self.window = window
        self.pages = pages
    }

    /// The requests refused for the budget.
    public var refused: Int { state.withLock { $0.refused } }
    /// The requests answered with a page.
    public var served: Int { state.withLock { $0.served } }
    /// The windows whose budget was spent and after which requests came again: the waits for a reset.
    public var waitedWindows: Int { state.withLock { $0.waitedWindows } }
    /// When each request arrived, refused or not.
    public var arrivals: [Date] { state.withLock { $0.arrivals } }

    /// Scripts the list at `path` on `server`: `?page=N`, `results`, `next` and `count`.
    public func install(on server: FixtureServer, path: String = "/items") {
        let base = server.url(path: path).absoluteString
        server.script(path) { [self] request in respond(page: Int(request.query["page"] ?? "1") ?? 1, base: base) }
    }

    private func respond(page: Int, base: String) -> FixtureServer.ScriptedResponse {
        let now = Date().timeIntervalSince1970
        let index = Int((now / Double(window)).rounded(.down))
        let windowEnd = Double(index + 1) * Double(window)
        let (remaining, spent) = state.withLock { state -> (Int, Bool) in
            state.arrivals.append(Date())
            if index != state.windowIndex {
                if state.used == limit { state.waitedWindows += 1 }
                state.windowIndex = index
                state.used = 0
            }
            guard state.used < limit else {
                state.refused += 1
                return (0, true)
            }
            state.used += 1
            state.served += 1
            return (limit - state.used, false)
        }
        let resetIn = Int((windowEnd - now).rounded(.up))
        var headers: [String: String]
        switch style {
        case .gitHub:
            headers = [
                "X-RateLimit-Limit": "\(limit)", "X-RateLimit-Remaining": "\(remaining)",
                "X-RateLimit-Reset": "\(Int(windowEnd))", "X-RateLimit-Used": "\(limit - remaining)",
                "X-RateLimit-Resource": "core",
            ]
        case .ietf:
            headers = [
                "RateLimit": #""default";r=\#(remaining);t=\#(resetIn)"#,
                "RateLimit-Policy": #""default";q=\#(limit);w=\#(window)"#,
            ]
        case .retryAfterDate:
            headers = [:]
        }
        if spent {
            if style == .ietf { headers["Retry-After"] = "\(resetIn)" }
            if style == .retryAfterDate {
                headers["Retry-After"] = HTTPDateText.string(from: Date(timeIntervalSince1970: windowEnd))
            }
            let status = style == .gitHub ? 403 : 429
            return FixtureServer.ScriptedResponse(
                status: status, headers: headers.merging(["Content-Type": "application/json"]) { mine, _ in mine },
                body: Data(#"{"message": "API rate limit exceeded"}"#.utf8))
        }
        let first = (page - 1) * pageSize + 1
        let items = (first..<first + pageSize).map { #"{"id": \#($0), "title": "item \#($0)"}"# }
        let next = page < pages ? "\"\(base)?page=\(page + 1)\"" : "null"
        return .json(
            #"{"count": \#(pages * pageSize), "next": \#(next), "results": [\#(items.joined(separator: ", "))]}"#,
            headers: headers)
    }
}
