import Foundation

/// A list to sync, as the fleet's queue stores it: its URL, how it pages, its limits and its
/// network settings, never a credential.
///
/// `slippers enqueue` builds one from the options `slippers sync` takes, and `slippers worker`
/// syncs it as `sync` would; a server app enqueues its own (SlippersPostgres's
/// `PostgresCache.enqueue(_:now:)`), syncs what its `FleetWorker` hands it, and plans each list
/// with SlippersKit's `StyleOverrides(request.style)`. What is not given is detected from the
/// list's first response, or takes `sync`'s default. A value with no I/O: it is only data.
///
/// For example:
///
/// ```swift
/// var request = SyncRequest(url: "https://api.example.com/posts")
/// request.style.name = "pageNumber"
/// request.style.pageSize = 100
/// request.limits.maxPages = 50
/// try await cache.enqueue([request])
/// ```
///
/// A request with a ``schedule`` comes due again after each run (`slippers enqueue --every`).
/// A request with ``incremental`` settings is synced from where it was last seen
/// (`slippers sync --incremental`): a worker runs it as `sync` would.
public struct SyncRequest: Hashable, Sendable, Codable {
    /// The URL of the list's first page (http or https).
    public var url: String
    /// How the list pages and where its items are; what is not given is detected.
    public var style: Style
    /// How much of the list one run fetches.
    public var limits: Limits
    /// The name items are filed under; `nil` for the default (the URL's last path component and its origin).
    public var itemType: String?
    /// Whether the run starts again at the first page (a new generation) instead of resuming.
    public var refresh: Bool
    /// Whether the run walks the cached list with conditional requests, rewriting only the pages that changed.
    public var revalidate: Bool
    /// Whether pages the server marked `Cache-Control: no-store` are cached all the same.
    public var keepsNoStorePages: Bool
    /// The requests' deadlines, retries, origins and concurrency.
    public var network: Network
    /// When the list comes due again after each run; `nil` for a list synced once.
    public var schedule: Schedule?
    /// How the list is synced from where it was last seen; `nil` for a list walked whole.
    public var incremental: Incremental?
    /// `true` when the caller said the list's new items come first (`sync --newest-first`): a
    /// complete list is then brought up to date from its first page; `nil` leaves it to what the
    /// cache recorded or detects.
    public var newestFirst: Bool?
    /// The name of the ``Account`` the list is kept for (`slippers enqueue --account`), such as a
    /// user's id; `nil` for the one the worker's credentials derive (anonymous without any).
    public var account: String?

    /// Creates a request for the list at `url`, everything else detected or left to its default.
    public init(
        url: String, style: Style = Style(), limits: Limits = Limits(), itemType: String? = nil,
        refresh: Bool = false, revalidate: Bool = false, keepsNoStorePages: Bool = false,
        network: Network = Network(), schedule: Schedule? = nil, incremental: Incremental? = nil,
        newestFirst: Bool? = nil, account: String? = nil
    ) {
        self.url = url
        self.style = style
        self.limits = limits
        self.itemType = itemType
        self.refresh = refresh
        self.revalidate = revalidate
        self.keepsNoStorePages = keepsNoStorePages
        self.network = network
        self.schedule = schedule
        self.incremental = incremental
        self.newestFirst = newestFirst
        self.account = account
    }

    /// The request as the queue stores it: JSON with sorted keys, so that one request is one text.
    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A request from the text the queue stores.
    public init(encoded text: String) throws {
        self = try JSONDecoder().decode(SyncRequest.self, from: Data(text.utf8))
    }
}

extension SyncRequest {
    /// How a list pages and where its items are: the style and shape options of `slippers sync`.
    /// Every member is optional; what is not given is detected from the list's first response.
    public struct Style: Hashable, Sendable, Codable {
        /// The way of asking for pages, by its kind's case name: `pageNumber`, `offset`, `cursor`,
        /// `nextURL`, `linkHeader`, `afterLastItem`, `range` or `singlePage`; `nil` to detect it. Lists asked for by POST take theirs from ``graphQL`` or ``postBody``.
        public var name: String?
        /// The key path of the items array, such as `data.items`; empty for a bare array.
        public var itemsPath: String?
        /// The member of each item that holds its id (default `id`).
        public var idField: String?
        /// The page size to ask for.
        public var pageSize: Int?
        /// The query parameter that numbers pages, such as `current_page`.
        public var pageParameter: String?
        /// The query parameter that sets the page size, such as `page_size`.
        public var pageSizeParameter: String?
        /// The query parameter a cursor read from the body is sent back as (default `cursor`).
        public var cursorParameter: String?
        /// The key path of the list's total in the body, such as `meta.total`.
        public var totalPath: String?
        /// A GraphQL query: the list is a Relay connection (or an offset or page list), asked for by POST.
        public var graphQL: String?
        /// The key path of the GraphQL connection under `data`.
        public var connection: String?
        /// The GraphQL query's variables, a JSON object; never a credential.
        public var variables: String?
        /// The GraphQL operation to run when the query holds several.
        public var operationName: String?
        /// The GraphQL variable an offset list is paged by.
        public var offsetVariable: String?
        /// The GraphQL variable a page-number list is paged by.
        public var pageVariable: String?
        /// The GraphQL variable that carries the page size of an offset or page-number list.
        public var sizeVariable: String?
        /// A JSON object: the list is asked for by POST with this body, its cursor set at ``cursorPath``.
        public var postBody: String?
        /// With ``postBody``, where the cursor goes in the body; for a list asked for by GET, where
        /// the body gives the next cursor.
        public var cursorPath: String?
        /// Where a response gives the next cursor (default `next_cursor`).
        public var nextCursorPath: String?
        /// The member of the page's last item that gives the next cursor, such as `sort`.
        public var nextCursorFromItem: String?
        /// Where the page size goes in the ``postBody``.
        public var pageSizePath: String?

        /// Creates a style where nothing is given: everything is detected.
        public init() {}

        /// Whether nothing is given.
        public var isEmpty: Bool { self == Style() }
    }

    /// How much of a list one run fetches; `nil` for no limit, or `sync`'s default.
    public struct Limits: Hashable, Sendable, Codable {
        /// At most this many pages.
        public var maxPages: Int?
        /// At most this many items (the page that reaches it is kept whole).
        public var maxItems: Int?
        /// Stop when this many pages in a row bring no new item (default 3).
        public var stallLimit: Int?

        /// Creates limits.
        public init(maxPages: Int? = nil, maxItems: Int? = nil, stallLimit: Int? = nil) {
            self.maxPages = maxPages
            self.maxItems = maxItems
            self.stallLimit = stallLimit
        }

        /// The pages in a row that bring no new item before a walk stops, when ``stallLimit`` is not given.
        public static let defaultStallLimit = 3

        /// The pages in a row that bring no new item before a walk stops: ``stallLimit``, else
        /// ``defaultStallLimit``; at least 1.
        public var pagesWithoutNewItems: Int { max(1, stallLimit ?? Self.defaultStallLimit) }
    }

    /// The requests' deadlines, retries, origins and concurrency; `nil` for `sync`'s default.
    public struct Network: Hashable, Sendable, Codable {
        /// Seconds to wait for a connection to open.
        public var connectTimeout: Double?
        /// Seconds to wait for the next byte of a response.
        public var idleTimeout: Double?
        /// Seconds a whole request may take.
        public var deadline: Double?
        /// The largest response body, in bytes, after decompression.
        public var maxBodySize: Int?
        /// A PEM file of CA certificates to trust, on the worker's machine.
        public var caCertificates: String?
        /// Origins next pages and redirects may go to, without the worker's headers.
        public var allowedOrigins: [String]
        /// Origins next pages and redirects may go to, with the worker's headers.
        public var trustedOrigins: [String]
        /// How many times one request is tried again after a transient failure.
        public var retries: Int?
        /// The wait before a request's first retry, in seconds.
        public var retryDelay: Double?
        /// How long a failing page is fetched again, in seconds, once its request's retries are spent.
        public var retryFor: Double?
        /// The most pages asked for at once.
        public var concurrency: Int?

        /// Creates network settings; what is not given takes `sync`'s default.
        public init(
            connectTimeout: Double? = nil, idleTimeout: Double? = nil, deadline: Double? = nil,
            maxBodySize: Int? = nil, caCertificates: String? = nil, allowedOrigins: [String] = [],
            trustedOrigins: [String] = [], retries: Int? = nil, retryDelay: Double? = nil, retryFor: Double? = nil,
            concurrency: Int? = nil
        ) {
            self.connectTimeout = connectTimeout
            self.idleTimeout = idleTimeout
            self.deadline = deadline
            self.maxBodySize = maxBodySize
            self.caCertificates = caCertificates
            self.allowedOrigins = allowedOrigins
            self.trustedOrigins = trustedOrigins
            self.retries = retries
            self.retryDelay = retryDelay
            self.retryFor = retryFor
            self.concurrency = concurrency
        }
    }

    /// When a list comes due again, as River's periodic jobs do, without a cron beside the fleet:
    /// a worker syncs it, then it waits `every` seconds (±10 %, so that lists enqueued together
    /// drift apart) before a worker takes it again; a run that failed backs off instead.
    public struct Schedule: Hashable, Sendable, Codable {
        /// Seconds between two syncs of the list.
        public var every: Double

        /// Creates a schedule.
        public init(every: Double) {
            self.every = every
        }
    }

    /// A list synced from where it was last seen, as dlt's `incremental` does: the greatest value
    /// of a field among its items, sent back in a query parameter, less a lookback.
    public struct Incremental: Hashable, Sendable, Codable {
        /// The key path of the item member whose greatest value is kept, such as `updated_at`.
        public var field: String
        /// The query parameter the kept value is sent in, such as `since`.
        public var sinceParameter: String
        /// Seconds subtracted from the kept value, for items written late; 300 (5 minutes) when `nil`.
        public var lookback: Double?
        /// The value sent before any is kept.
        public var initialValue: String?

        /// Creates incremental settings.
        public init(field: String, sinceParameter: String, lookback: Double? = nil, initialValue: String? = nil) {
            self.field = field
            self.sinceParameter = sinceParameter
            self.lookback = lookback
            self.initialValue = initialValue
        }
    }
}
