import Foundation
import Synchronization

/// A feed's posts, numbered 1 (the oldest) to ``count`` (the newest), each with a snowflake-like
/// string id; a test raises the count to post a burst.
public final class FeedPosts: Sendable {
    private let count: Mutex<Int>

    /// A feed of `count` posts.
    public init(_ count: Int) { self.count = Mutex(count) }

    /// How many posts the feed holds.
    public var value: Int { count.withLock { $0 } }

    /// Posts `more` new posts at the top.
    public func post(_ more: Int) { count.withLock { $0 += more } }

    /// The string id of post `number` (1 is the oldest).
    public static func id(_ number: Int) -> String { String(109_000_000_000_000_000 + number) }

    /// The number of the post with `id`, when it is one of a feed's.
    static func number(_ id: String) -> Int? { Int(id).map { $0 - 109_000_000_000_000_000 } }
}

extension FixtureServer {
    /// Serves a home timeline at `path` as Mastodon's API documents it
    /// (`GET /api/v1/timelines/home`): statuses newest first, string ids, `limit` 20 by default
    /// (at most 40); `max_id` for the statuses older than an id, `since_id` for the newest ones
    /// newer than it, `min_id` for the ones immediately newer than it (still newest first); a `Link`
    /// header with `rel="next"` (`max_id` of the last) and `rel="prev"` (`min_id` of the first)
    /// while the page has statuses; no total. An authenticated call is `Cache-Control: private,
    /// no-store`, as Mastodon answers it; every call is, with `privateToEveryone`.
    public func serveMastodonTimeline(
        at path: String = "/api/v1/timelines/home", posts: FeedPosts, privateToEveryone: Bool = false
    ) {
        let base = url(path: path).absoluteString
        script(path) { request in
            let limit = min(40, max(1, request.query["limit"].flatMap { Int($0) } ?? 20))
            let numbers = Self.feedPage(
                of: posts.value, limit: limit, before: request.query["max_id"].flatMap(FeedPosts.number),
                newestAfter: request.query["since_id"].flatMap(FeedPosts.number),
                justAfter: request.query["min_id"].flatMap(FeedPosts.number))
            let isPrivate = privateToEveryone || request.authorization != nil
            var headers = ["Cache-Control": isPrivate ? "private, no-store" : "max-age=0"]
            if let first = numbers.first, let last = numbers.last {
                var links = [#"<\#(base)?min_id=\#(FeedPosts.id(first))>; rel="prev""#]
                if last > 1 { links.insert(#"<\#(base)?max_id=\#(FeedPosts.id(last))>; rel="next""#, at: 0) }
                headers["Link"] = links.joined(separator: ", ")
            }
            return .json(Self.statuses(numbers), headers: headers)
        }
    }

    /// Serves a channel's messages at `path` as Discord's API documents them
    /// (`GET /channels/{id}/messages`): a bare array, newest first, string snowflake ids, `limit`
    /// 50 by default (1 to 100); `before`, `after` or `around` an id (one of them); no links and no total.
    public func serveDiscordChannel(at path: String = "/api/v10/channels/1/messages", posts: FeedPosts) {
        script(path) { request in
            let limit = min(100, max(1, request.query["limit"].flatMap { Int($0) } ?? 50))
            let numbers: [Int]
            if let around = request.query["around"].flatMap(FeedPosts.number) {
                // The messages around the id, with it: half newer, the rest older.
                let newer = Self.feedPage(of: posts.value, limit: limit / 2, justAfter: around)
                let older = Self.feedPage(of: posts.value, limit: limit - newer.count, before: around + 1)
                numbers = newer + older
            } else {
                numbers = Self.feedPage(
                    of: posts.value, limit: limit, before: request.query["before"].flatMap(FeedPosts.number),
                    justAfter: request.query["after"].flatMap(FeedPosts.number))
            }
            return .json(Self.statuses(numbers), headers: ["Cache-Control": "max-age=0"])
        }
    }

    /// Serves a feed at `path` as JSON:API's cursor pagination profile pages a collection, with
    /// the posts' ids as cursors: `{"data": [{"id", "type", "attributes"}…], "links": {"next",
    /// "prev"}}`, newest first, `page[size]` 20 by default; `page[before]` for the posts older than
    /// an id, `page[after]` for the ones just newer; no total.
    public func serveJSONAPIFeed(at path: String = "/jsonapi/posts", posts: FeedPosts) {
        let base = url(path: path).absoluteString
        script(path) { request in
            let size = min(100, max(1, request.query["page[size]"].flatMap { Int($0) } ?? 20))
            let numbers = Self.feedPage(
                of: posts.value, limit: size, before: request.query["page[before]"].flatMap(FeedPosts.number),
                justAfter: request.query["page[after]"].flatMap(FeedPosts.number))
            func link(_ name: String, _ number: Int?) -> String {
                number.map { #""\#(base)?page%5B\#(name)%5D=\#(FeedPosts.id($0))""# } ?? "null"
            }
            let data = numbers.map {
                #"{"type": "posts", "id": "\#(FeedPosts.id($0))", "attributes": {"content": "post \#($0)"}}"#
            }
            let next = numbers.last.flatMap { $0 > 1 ? $0 : nil }
            return .json(
                #"{"data": [\#(data.joined(separator: ","))], "links": {"next": \#(link("before", next)), "prev": \#(link("after", numbers.first))}}"#,
                headers: ["Cache-Control": "max-age=0", "Content-Type": "application/vnd.api+json"])
        }
    }

    /// The numbers of a page of a feed of `count` posts, newest first: the newest `limit` older than
    /// `before`, the newest newer than `newestAfter`, or the oldest `limit` newer than `justAfter`.
    private static func feedPage(
        of count: Int, limit: Int, before: Int? = nil, newestAfter: Int? = nil, justAfter: Int? = nil
    ) -> [Int] {
        if let justAfter {
            let low = max(1, justAfter + 1)
            let high = min(count, justAfter + limit)
            return low <= high ? Array((low...high).reversed()) : []
        }
        let high = min(count, (before ?? count + 1) - 1)
        let low = max(1, (newestAfter ?? 0) + 1, high - limit + 1)
        return low <= high ? Array((low...high).reversed()) : []
    }

    private static func statuses(_ numbers: [Int]) -> String {
        "["
            + numbers.map { #"{"id": "\#(FeedPosts.id($0))", "content": "post \#($0)"}"# }.joined(separator: ",")
            + "]"
    }
}
