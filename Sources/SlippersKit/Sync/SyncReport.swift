/// What a ``Syncer`` run did: its figures and the line `slippers sync` prints.
public struct SyncReport: Sendable, Hashable, CustomStringConvertible {
    /// How the run brought the list up to date.
    public enum Kind: Sendable, Hashable {
        /// The list was walked, from its first page or after its committed pages.
        case walked
        /// A complete list whose new items come first was brought up to date from its first page.
        case headRefreshed
        /// The list was synced from its watermark (``SyncRequest/incremental``).
        case incremental
        /// The cached list was walked with conditional requests (``SyncRequest/revalidate``).
        case revalidated
    }

    /// How the run brought the list up to date.
    public var kind: Kind
    /// The list's key.
    public var list: String
    /// The requests of pages this run made (pages taken from other workers not counted).
    public var pagesFetched: Int
    /// The items on the pages this run fetched.
    public var itemsFetched: Int
    /// The items the list holds once the run ended.
    public var itemsCached: Int
    /// Whether the list is complete: its end was reached.
    public var endReached: Bool
    /// The retries of requests and pages.
    public var retries: Int
    /// The one line that says what the run did, as `slippers sync` prints it.
    public var summary: String

    /// The summary line.
    public var description: String { summary }
}
