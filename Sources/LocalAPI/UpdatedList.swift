import Foundation
import Synchronization

/// A list whose items say when they last changed, asked for since a time with `updated_since`,
/// scripted on a fixture server: the list incremental syncs are tested and measured against.
///
/// Items are ``FixtureItem``s with two more members, `updated_at` (an ISO 8601 time in UTC) and
/// `version` (from 1, one more with each edit). Item *i* was last updated at ``baseTime`` + *i*
/// minutes until ``edit(_:at:)`` changes it; ``add(_:at:)`` appends new ids. The list is asked for
/// by page, Django REST framework's way:
///
/// | parameter | meaning |
/// | --- | --- |
/// | `page` | the page, from 1 |
/// | `per_page` | the page size (``pageSize`` unless given) |
/// | `updated_since` | only the items whose `updated_at` is at or after this time |
///
/// and answers `count`, `next` (the URL of the next page, `updated_since` kept; `null` at the end),
/// `previous` and `results`, in id order.
///
/// ```swift
/// let list = UpdatedList(count: 1_000)
/// list.install(on: server)                       // http://127.0.0.1:PORT/updated
/// list.edit([7, 8], at: UpdatedList.changeTime)  // version 2, updated_at 2026-01-01T00:00:00Z
/// ```
public final class UpdatedList: Sendable {
    /// The page size when a request gives none.
    public let pageSize: Int

    /// When item 0 would have been updated: item *i* was at this time + *i* minutes (2020-01-01T00:00:00Z).
    public static let baseTime = Date(timeIntervalSince1970: 1_577_836_800)
    /// A time after every item's first update, for changes: 2026-01-01T00:00:00Z.
    public static let changeTime = Date(timeIntervalSince1970: 1_767_225_600)

    private struct Change {
        var version: Int
        var updatedAt: Date
    }

    private struct State {
        var count: Int
        var changes: [Int: Change] = [:]
        var servedPages = 0
        var servedBytes = 0
    }

    private let state: Mutex<State>

    /// Creates a list of ids 1…`count`.
    public init(count: Int, pageSize: Int = 100) {
        self.pageSize = max(1, pageSize)
        state = Mutex(State(count: max(0, count)))
    }

    /// The number of items.
    public var count: Int { state.withLock { $0.count } }

    /// The pages answered since the list was made or ``resetServed()``, and the bytes of their bodies.
    public var served: (pages: Int, bytes: Int) { state.withLock { ($0.servedPages, $0.servedBytes) } }

    /// Counts the pages and bytes ``served`` from zero again.
    public func resetServed() {
        state.withLock { state in (state.servedPages, state.servedBytes) = (0, 0) }
    }

    /// Edits items: each gets one more version, a title that says it, and `updated_at` = `date`.
    public func edit(_ ids: [Int], at date: Date) {
        state.withLock { state in
            for id in ids where id >= 1 && id <= state.count {
                state.changes[id] = Change(version: (state.changes[id]?.version ?? 1) + 1, updatedAt: date)
            }
        }
    }

    /// Appends `count` new items, with ids after every other, updated at `date`.
    public func add(_ count: Int, at date: Date) {
        state.withLock { state in
            for id in state.count + 1..<state.count + 1 + max(0, count) {
                state.changes[id] = Change(version: 1, updatedAt: date)
            }
            state.count += max(0, count)
        }
    }

    /// The JSON the list sends for an item, or `nil` when there is no such item.
    public func json(id: Int) -> String? {
        state.withLock { state in Self.json(id: id, state: state) }
    }

    /// The JSON of every item, in id order.
    public var allJSON: [String] {
        state.withLock { state in (0..<state.count).compactMap { Self.json(id: $0 + 1, state: state) } }
    }

    /// The `updated_at` text of a time, as items carry it.
    public static func text(of date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    /// Scripts the list at `path` on `server`.
    public func install(on server: FixtureServer, path: String = "/updated") {
        let base = server.url(path: path).absoluteString
        server.script(path) { [self] request in respond(to: request.query, base: base) }
    }

    private static func json(id: Int, state: State) -> String? {
        guard id >= 1, id <= state.count else { return nil }
        let change = state.changes[id]
        let version = change?.version ?? 1
        let updatedAt = change?.updatedAt ?? baseTime.addingTimeInterval(Double(id) * 60)
        let title = version > 1 ? "Edited item \(id), version \(version)" : nil
        return FixtureItem.json(id: id, title: title).dropLast()
            + #","updated_at":"\#(text(of: updatedAt))","version":\#(version)}"#
    }

    private func respond(to query: [String: String], base: String) -> FixtureServer.ScriptedResponse {
        let page = Int(query["page"] ?? "1") ?? 0
        let size = Int(query["per_page"] ?? "\(pageSize)") ?? 0
        var since: Date?
        if let text = query["updated_since"] {
            since = try? Date(text, strategy: .iso8601)
            if since == nil { return Self.badRequest("updated_since is not an ISO 8601 time") }
        }
        guard page >= 1, size >= 1 else { return Self.badRequest("bad page parameters") }
        let (ids, items) = state.withLock { state -> (count: Int, items: [String]) in
            guard let since else {
                // The whole list is ids 1…count: a page is a range of them.
                let start = min(state.count, (page - 1) * size)
                let end = min(state.count, start + size)
                return (state.count, (start..<end).compactMap { Self.json(id: $0 + 1, state: state) })
            }
            let ids = Self.ids(since: since, state: state)
            let start = min(ids.count, (page - 1) * size)
            let end = min(ids.count, start + size)
            return (ids.count, ids[start..<end].compactMap { Self.json(id: $0, state: state) })
        }
        var next = "null"
        if page * size < ids {
            var components = URLComponents(string: base)
            var items = [URLQueryItem(name: "page", value: "\(page + 1)")]
            if query["per_page"] != nil { items.append(URLQueryItem(name: "per_page", value: "\(size)")) }
            if let text = query["updated_since"] { items.append(URLQueryItem(name: "updated_since", value: text)) }
            components?.queryItems = items
            let query = components?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            components?.percentEncodedQuery = query
            next = "\"\(components?.string ?? base)\""
        }
        let body = #"{"count":\#(ids),"next":\#(next),"previous":null,"results":[\#(items.joined(separator: ","))]}"#
        state.withLock { state in
            state.servedPages += 1
            state.servedBytes += body.utf8.count
        }
        return .json(body)
    }

    /// The ids of the items updated at or after `since`, in order.
    private static func ids(since: Date, state: State) -> [Int] {
        // Unchanged items were updated at baseTime + id minutes: the newest ones, from `first` on.
        let first = max(1, Int((since.timeIntervalSince(baseTime) / 60).rounded(.up)))
        var ids = first <= state.count ? (first...state.count).filter { state.changes[$0] == nil } : []
        ids += state.changes.filter { $0.value.updatedAt >= since }.map(\.key)
        return ids.sorted()
    }

    private static func badRequest(_ message: String) -> FixtureServer.ScriptedResponse {
        FixtureServer.ScriptedResponse(
            status: 400, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"\#(message)"}"#.utf8))
    }
}
