import Foundation
import Slippers
import Synchronization

/// Pages of offset lists asked for with the item before them.
extension HTTPPageSource {
    /// How the page at a token is asked for together with the item before it.
    package struct OverlappingRequest {
        /// The source that sends the request: this one, or one whose page size is one larger.
        var source: HTTPPageSource
        /// The token of the request: one item earlier than the page's.
        var token: PageToken
        /// The offset of the first item asked for.
        var offset: Int
        /// The number of items asked for: one more than a page.
        var size: Int
        /// The token of the next page, for a next-URL list: the one a plain request's page names.
        var nextPageToken: PageToken?
    }

    /// The request for the page at `token` that also asks for the item before it: one item
    /// earlier, one item more. `nil` when the style cannot ask for one: only offset lists whose
    /// page size the source sets, range lists with a page size, and next-URL or `Link` lists
    /// that advance an offset by a step their URL sets as the page size (Django REST framework's
    /// `?limit=50&offset=100`) can.
    package func overlappingRequest(for token: PageToken?) -> OverlappingRequest? {
        guard let request = widenedRequest(for: token) else { return nil }
        // A server that takes no more than the page size refuses or cuts the wider request.
        if let largest = learnt.maxPageSize ?? style.maxPageSize, request.size > largest { return nil }
        return request
    }

    private func widenedRequest(for token: PageToken?) -> OverlappingRequest? {
        style.continuation.overlappingRequest(for: token, in: self)
    }

    /// Whether the page at `token` is asked for with the item before it when a request asks:
    /// whether the style can (see ``Slippers/PageRequest/overlapsPreviousPage``).
    public func asksItemBefore(at token: PageToken?) -> Bool {
        overlappingRequest(for: token) != nil
    }

    /// The style text that records what this source learnt of its server: its style with the
    /// largest page size the server takes (``PaginationStyle/maxPageSize``); `nil` when it learnt
    /// nothing the style does not say already.
    public var learntStyle: String? {
        guard let largest = learnt.maxPageSize, style.maxPageSize != largest else { return nil }
        var recorded = style
        recorded.maxPageSize = largest
        return try? recorded.storedText()
    }

    /// Fetches the page at `request`'s token together with the item before it, as
    /// ``Slippers/Page/itemBefore``; `nil` when the answer cannot be one: the server refused the
    /// wider request (`400` or `422`: it validates the page size against a cap), or sent fewer
    /// items than asked for while the list goes on (it caps the page size). Either way the
    /// source learns the largest page size the server takes, and asks no wider page again.
    ///
    /// The page keeps the token it was asked for and the next token of a plain request, so that
    /// the stored pages are those of plain requests. It has no validators: they name another
    /// representation than the page's own URL.
    func fetchWidened(_ request: PageRequest, _ overlapping: OverlappingRequest) async throws -> Page<RawItem>? {
        let asked = PageRequest(token: overlapping.token, retriesTransientFailures: request.retriesTransientFailures)
        let result: PageResult<RawItem>
        do {
            result = try await overlapping.source.fetch(asked)
        } catch let error as NetworkError where error.status == 400 || error.status == 422 {
            // The plain request that follows tells whether the page itself is refused.
            learnt.record(maxPageSize: overlapping.size - 1)
            return nil
        }
        guard var page = result.page else { return nil }
        let count = page.items.count
        let more = page.total.map { overlapping.offset + count < $0 } ?? (count == overlapping.size - 1)
        if count < overlapping.size, more {
            learnt.record(maxPageSize: max(1, count))
            return nil
        }
        page.token = request.token
        page.validators = PageValidators()
        if page.nextToken != nil, let next = overlapping.nextPageToken { page.nextToken = next }
        if !page.items.isEmpty { page.itemBefore = page.items.removeFirst() }
        return page
    }
}

/// What a source and its copies learnt of the server while they asked it for pages: the largest
/// page size it takes, once it refused or cut a wider request.
final class LearntServerLimits: Sendable {
    private let largestPageSize = Mutex<Int?>(nil)

    /// The largest page size the server takes, once learnt.
    var maxPageSize: Int? { largestPageSize.withLock { $0 } }

    /// Records that the server takes no more than `size` items a page.
    func record(maxPageSize size: Int) {
        largestPageSize.withLock { $0 = min($0 ?? size, size) }
    }
}
