import Foundation
import Slippers
import Tracing

extension ListSync {
    /// Runs `body` in a `slippers.list` span of ``tracer``: one per run of a list (a walk, a head
    /// refresh, a revalidation), with the list's origin, its style and what the run did.
    ///
    /// The span's attributes name the list's origin (`scheme://host[:port]`) and its style's kind,
    /// never its path, its query or a header: what a trace keeps is safe to show. Without a
    /// tracer bootstrapped (`InstrumentationSystem.tracer` is a no-op), the span costs a task-local
    /// value and nothing is recorded. An error `body` throws is recorded on the span.
    ///
    /// - parameter operation: What the run does: `run`, `refresh_head`, `revalidate`, `incremental`.
    /// - parameter counting: The pages and items the run's outcome reports, for the span.
    package func tracingList<T>(
        _ operation: String, counting: (T) -> (pages: Int, items: Int), running body: () async throws -> T
    ) async throws -> T {
        try await SyncTracing.list(
            tracer, operation: operation, list: list, counting: counting, running: body)
    }

    /// Runs `fetch` in a `slippers.page` span of ``tracer``, a child of the current span (the list's):
    /// the page's index, its style and origin, and what came back (items and their bytes, or "not modified").
    ///
    /// The requests the source sends meanwhile are the span's children when the source traces them
    /// (`APIClient` does, with its status and the bytes received). A fetch that throws leaves an error span.
    package func tracingPage(
        at index: Int, _ fetch: () async throws -> PageResult<RawItem>
    ) async throws -> PageResult<RawItem> {
        try await SyncTracing.page(tracer, index: index, list: list, fetch)
    }
}

/// The spans of a sync, through swift-distributed-tracing; see ``ListSync/tracer``.
///
/// Names follow OpenTelemetry's habits: `slippers.list` and `slippers.page` spans, attributes
/// under `slippers.`, low-cardinality values (an origin, a style's kind), never a URL's path or
/// query, a header's value or a credential.
package enum SyncTracing {
    /// The span of a list's run.
    package static let listSpan = "slippers.list"
    /// The span of one page's fetch, retries included.
    package static let pageSpan = "slippers.page"

    /// Runs `body` in a list span; see ``ListSync/tracingList(_:counting:running:)``.
    package static func list<T>(
        _ tracer: some Tracer, operation: String, list: ListDescriptor,
        counting: (T) -> (pages: Int, items: Int), running body: () async throws -> T
    ) async throws -> T {
        try await tracer.withSpan(listSpan, ofKind: .internal) { span in
            if span.isRecording {
                span.attributes["slippers.operation"] = operation
                describe(list, on: span)
            }
            let outcome = try await body()
            if span.isRecording {
                let (pages, items) = counting(outcome)
                span.attributes["slippers.pages"] = pages
                span.attributes["slippers.items"] = items
            }
            return outcome
        }
    }

    /// Runs `fetch` in a page span; see ``ListSync/tracingPage(at:_:)``.
    package static func page(
        _ tracer: some Tracer, index: Int, list: ListDescriptor,
        _ fetch: () async throws -> PageResult<RawItem>
    ) async throws -> PageResult<RawItem> {
        try await tracer.withSpan(pageSpan, ofKind: .internal) { span in
            if span.isRecording {
                span.attributes["slippers.page"] = index
                describe(list, on: span)
            }
            let result = try await fetch()
            if span.isRecording {
                switch result {
                case .page(let page):
                    span.attributes["slippers.status"] = "fetched"
                    span.attributes["slippers.items"] = page.items.count
                    span.attributes["slippers.bytes"] = page.items.reduce(0) { $0 + $1.json.count }
                case .notModified:
                    span.attributes["slippers.status"] = "not_modified"
                    span.attributes["slippers.items"] = 0
                }
            }
            return result
        }
    }

    /// Sets the list's origin and style kind on `span`, when it has them.
    private static func describe(_ list: ListDescriptor, on span: some Span) {
        if let origin = origin(ofKey: list.listKey.list) { span.attributes["slippers.origin"] = origin }
        if let style = styleKind(list.style) { span.attributes["slippers.style"] = style }
    }

    /// The origin (`scheme://host[:port]`, lowercased, no user or password) of the URL a list's key
    /// holds, such as `https://api.example.com` of `https://api.example.com/posts?sort=new` or of
    /// `POST https://api.example.com/graphql {…}`; `nil` when the key names no URL.
    package static func origin(ofKey key: String) -> String? {
        guard let word = key.split(separator: " ").first(where: { $0.contains("://") }),
            let components = URLComponents(string: String(word)),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        var origin = "\(scheme)://" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        if let port = components.port, !(scheme == "http" && port == 80), !(scheme == "https" && port == 443) {
            origin += ":\(port)"
        }
        return origin
    }

    /// The kind of a stored style: the name of its `kind` member (`pageNumber`, `cursor`, `linkHeader`),
    /// or a short word as another source records it; `nil` for anything else. The rest of a style
    /// (its parameters, a GraphQL query, a body) stays out of a trace.
    package static func styleKind(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        if text.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let kind = object["kind"] as? [String: Any], kind.count == 1
            else { return nil }
            return kind.keys.first
        }
        let isWord = text.count <= 40 && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return isWord ? text : nil
    }
}
