import Foundation
import Synchronization

/// A list that answers each bearer token with its user's own items, scripted on a fixture server:
/// `GET /mine?page=N` (`results`, `next`, `count`), `GET` and `PATCH` of `/mine/ID`.
///
/// Every user has items 1…`count`, so ids are equal across users while values are not
/// (`{"id", "owner", "title", "secret"}`, the secret `alice-secret-7`). Several tokens may stand
/// for one user (a rotated token). A request without a known token gets `401`. Writes are applied
/// to the user's own copy and recorded with the token that made them; the server ignores
/// `If-Match` and `Idempotency-Key` and sends no `ETag`, as most servers do.
public final class AccountList: Sendable {
    /// A write the server applied: the token it came with, the item's id and the body.
    public struct Write: Sendable, Equatable {
        /// The bearer token of the request.
        public var token: String
        /// The item written.
        public var id: Int
        /// The body sent.
        public var body: String
    }

    /// The number of items each user has.
    public let count: Int
    /// The number of items a page holds.
    public let pageSize: Int
    private let users: [String: String]
    private let state = Mutex<(edits: [String: [Int: [String: String]]], writes: [Write])>(([:], []))

    /// A list of `count` items per user; `tokens` maps each bearer token to its user.
    public init(tokens: [String: String], count: Int = 30, pageSize: Int = 10) {
        self.users = tokens
        self.count = count
        self.pageSize = pageSize
    }

    /// The writes applied, oldest first.
    public var writes: [Write] { state.withLock { $0.writes } }

    /// The item `id` of `user` as the server holds it, JSON.
    public func itemJSON(user: String, id: Int) -> String {
        let edits = state.withLock { $0.edits[user]?[id] ?? [:] }
        var members: [String: Any] = [
            "id": id, "owner": user, "title": "\(user) message \(id)", "secret": "\(user)-secret-\(id)",
        ]
        for (name, value) in edits { members[name] = value }
        let data = (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Scripts the list at `path` on `server`, and its items at `path/ID`.
    public func install(on server: FixtureServer, path: String = "/mine") {
        let base = server.url(path: path).absoluteString
        server.script(path) { [self] request in
            guard let user = user(of: request) else { return Self.unauthorized }
            let page = max(1, Int(request.query["page"] ?? "1") ?? 1)
            let ids = Array(stride(from: (page - 1) * pageSize + 1, through: min(page * pageSize, count), by: 1))
            let next = page * pageSize < count ? "\"\(base)?page=\(page + 1)\"" : "null"
            let items = ids.map { itemJSON(user: user, id: $0) }.joined(separator: ",")
            return .json(#"{"count": \#(count), "next": \#(next), "results": [\#(items)]}"#)
        }
        for id in 1...count {
            server.script("\(path)/\(id)") { [self] request in
                guard let user = user(of: request) else { return Self.unauthorized }
                if request.method == "PATCH" {
                    let token = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
                    let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
                    state.withLock { state in
                        for (name, value) in object {
                            state.edits[user, default: [:]][id, default: [:]][name] = "\(value)"
                        }
                        state.writes.append(
                            Write(token: token, id: id, body: String(decoding: request.body, as: UTF8.self)))
                    }
                }
                return .json(itemJSON(user: user, id: id))
            }
        }
    }

    private func user(of request: FixtureServer.ReceivedRequest) -> String? {
        guard let authorization = request.headers["Authorization"], authorization.hasPrefix("Bearer ") else {
            return nil
        }
        return users[String(authorization.dropFirst("Bearer ".count))]
    }

    private static let unauthorized = FixtureServer.ScriptedResponse(
        status: 401, headers: ["Content-Type": "application/json"], body: Data(#"{"detail": "no token"}"#.utf8))
}
