import Foundation
import Observation

/// The matches of an offline search, for a view to observe: ranked, paged, and following the cache.
///
/// An `@Observable` model on the main actor over ``SlippersSQLite/Repository/search(_:in:limit:)``.
/// Setting ``text`` searches again at once (a search takes a few milliseconds, so it runs as the
/// person types); ``rowAppeared(_:)`` asks for more matches as the end of the list comes into
/// view; while ``follow()`` runs, a page saved, an item changed offline or an item evicted, by
/// this process or another, updates ``items`` with no request.
///
/// For example:
///
/// ```swift
/// @State var matches = SearchList(Repository<Post>(cache: cache), in: "https://api.example.com/posts")
///
/// List(matches.items) { post in PostRow(post).onAppear { matches.rowAppeared(post) } }
///     .searchable(text: $matches.text)
///     .task { await matches.follow() }
/// ```
@MainActor
@Observable
public final class SearchList<Item: Codable & CacheIdentifiable & Sendable & Identifiable> {
    /// What is searched for; setting it searches again from the first page of matches.
    public var text: String {
        didSet {
            guard text != oldValue else { return }
            limit = pageSize
            reload()
        }
    }
    /// The matches shown, most relevant first.
    public private(set) var items: [Item] = []
    /// Whether every match is in ``items``.
    public private(set) var endReached = true
    /// The error of the last search, if it failed (a damaged file, an item that does not decode).
    public private(set) var error: (any Error)?

    /// The typed cache searched.
    @ObservationIgnored public let repository: Repository<Item>
    /// The list searched; every item of the repository's type when `nil`.
    @ObservationIgnored public let list: String?
    /// How many more matches each page adds.
    @ObservationIgnored public let pageSize: Int
    @ObservationIgnored private var limit: Int

    /// Creates the matches of `text` among the items of `repository`'s type, or of one list.
    ///
    /// - parameter repository: The typed cache to search.
    /// - parameter text: What to search for at first; nothing matches empty text.
    /// - parameter list: The key of the list to search; every item of the type when `nil`.
    /// - parameter pageSize: How many matches a page adds.
    public init(
        _ repository: Repository<Item>, searching text: String = "", in list: String? = nil, pageSize: Int = 50
    ) {
        precondition(pageSize > 0, "a page of matches holds at least one")
        self.repository = repository
        self.list = list
        self.pageSize = pageSize
        self.text = text
        limit = pageSize
        reload()
    }

    /// Shows one more page of matches, unless every match is shown.
    public func loadNextPage() {
        guard !endReached else { return }
        limit += pageSize
        reload()
    }

    /// Reports that `item`'s row is on screen: near the end of the matches, the next page is shown.
    public func rowAppeared(_ item: Item) {
        guard !endReached, let index = items.firstIndex(where: { $0.id == item.id }), index >= items.count - 5
        else { return }
        loadNextPage()
    }

    /// Searches again each time the cache changes, until the calling task is cancelled.
    ///
    /// - parameter interval: How often another process's writes are looked for (``SlippersSQLite/SQLiteCache/changes(pollingEvery:)``).
    public func follow(pollingEvery interval: Duration = .milliseconds(50)) async {
        let changes = repository.cache.changes(pollingEvery: interval)
        // What changed between the last search and the start of following.
        reload()
        for await _ in changes { reload() }
    }

    private func reload() {
        do {
            // One match more than shown says whether there are more.
            let found = try repository.search(text, in: list, limit: limit + 1)
            endReached = found.count <= limit
            items = Array(found.prefix(limit))
            error = nil
        } catch {
            self.error = error
        }
    }
}
