import Foundation
import Slippers
import Synchronization

/// The query parameters a newest-first list's server takes to name a page by an item
/// (``Slippers/PageAnchor``): Mastodon's `max_id` and `min_id`, Discord's `before`, `after` and
/// `around`.
///
/// A source learns the older and newer ones from the `Link` header of the pages it fetches (the
/// parameter of `rel="next"` whose value is the page's last id, of `rel="prev"` whose value is its
/// first id), and a list asked by the id of its last item (``PaginationStyle/afterLastItem(parameter:pageSize:pageSizeParameter:itemsKeyPath:idField:)``)
/// has its older one. A server that says neither (a bare array) is declared:
///
/// ```swift
/// configuration.feedParameters = FeedParameters(older: "before", newer: "after", around: "around")
/// ```
public struct FeedParameters: Hashable, Sendable {
    /// The parameter that asks for the items older than an id, without it (`max_id`, `before`).
    var older: String?
    /// The parameter that asks for the items just newer than an id, without it (`min_id`, `after`).
    var newer: String?
    /// The parameter that asks for the items around an id, with it (`around`).
    var around: String?

    /// Creates the parameters; a `nil` one is learnt from the server's links when it gives them.
    public init(older: String? = nil, newer: String? = nil, around: String? = nil) {
        self.older = older
        self.newer = newer
        self.around = around
    }

    /// The parameter of `relation`.
    package func parameter(for relation: PageAnchor.Relation) -> String? {
        switch relation {
        case .olderThan: older
        case .newerThan: newer
        case .around: around
        }
    }

    /// These parameters, with the ones they lack taken from `other`.
    func filled(from other: FeedParameters) -> FeedParameters {
        FeedParameters(older: older ?? other.older, newer: newer ?? other.newer, around: around ?? other.around)
    }

    /// The parameters a `Link` header shows for a page of `items`: the query parameter of the next
    /// link whose value is the last item's id, and of the previous link whose value is the first's.
    static func learnt(fromLinkHeader header: String?, items: [RawItem]) -> FeedParameters {
        guard let header else { return FeedParameters() }
        let links = LinkHeader(header).links
        func target(_ relations: [String]) -> String? {
            links.first { !Set($0.relations).isDisjoint(with: relations) }?.target
        }
        return learnt(next: target(["next"]), previous: target(["prev", "previous"]), items: items)
    }

    /// The parameters a page's next and previous URLs show for a page of `items` (a `Link`
    /// header's, or a body's: JSON:API's `links.next` and `links.prev`): the query parameter of
    /// the next URL whose value is the last item's id, and of the previous one whose value is the first's.
    static func learnt(next: String?, previous: String?, items: [RawItem]) -> FeedParameters {
        guard let first = items.first?.key.description, let last = items.last?.key.description else {
            return FeedParameters()
        }
        func parameter(_ url: String?, value: String) -> String? {
            let items = url.flatMap { URLComponents(string: $0)?.queryItems } ?? []
            return items.first { $0.value == value }?.name
        }
        return FeedParameters(older: parameter(next, value: last), newer: parameter(previous, value: first))
    }
}

/// The feed parameters a source and its copies learnt from the pages they fetched.
final class LearntFeedParameters: Sendable {
    private let parameters = Mutex(FeedParameters())

    var value: FeedParameters { parameters.withLock { $0 } }

    func record(_ learnt: FeedParameters) {
        guard learnt.older != nil || learnt.newer != nil else { return }
        parameters.withLock { $0 = learnt.filled(from: $0) }
    }
}

extension HTTPPageSource {
    /// The feed parameters this source asks with: the declared ones, then the learnt ones.
    var knownFeedParameters: FeedParameters {
        var known = (feedParameters ?? FeedParameters()).filled(from: learntFeed.value)
        if known.older == nil { known.older = style.continuation.olderItemsParameter }
        return known
    }

    /// Whether the source can fetch the page an item names in `relation`: a GET list whose server
    /// has a parameter for it, declared or learnt.
    public func answers(_ relation: PageAnchor.Relation) -> Bool {
        !style.isPosted && knownFeedParameters.parameter(for: relation) != nil
    }

    /// The URL of the page an anchor names: the list's URL with the relation's parameter set to the id.
    func anchoredURL(_ anchor: PageAnchor) throws -> URL {
        guard !style.isPosted, let parameter = knownFeedParameters.parameter(for: anchor.relation) else {
            throw NetworkError(.invalidToken("\(anchor.relation) \(anchor.key)"), url: url)
        }
        return try settingQuery([parameter: anchor.key.description])
    }
}
