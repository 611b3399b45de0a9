import Foundation
import Slippers

/// One cached page's row: where it came from, when, and how fresh it is.
public struct PageInfo: Hashable, Sendable {
    /// The position of the page in its list, from 0.
    public var index: Int
    /// The generation the page belongs to.
    public var generation: Int
    /// The token that fetched the page; `nil` for a first page.
    public var token: PageToken?
    /// The token of the following page; `nil` for the last.
    public var nextToken: PageToken?
    /// The validators to revalidate the page with.
    public var validators: PageValidators
    /// When the page was fetched or last revalidated.
    public var fetchedAt: Date
    /// The number of items on the page.
    public var itemCount: Int
    /// Whether the page belongs to an older generation than its list's: superseded.
    public var isSuperseded: Bool
    /// When the network last confirmed the page: fetched it, or answered that it had not changed.
    public var verifiedAt: Date?
    /// A digest of the page's items (keys and JSON bytes); `nil` for a page saved by an older version.
    package var digest: String?
    /// How long after ``verifiedAt`` the page is fresh, in seconds, when its response said
    /// (`Cache-Control: max-age`, `Expires`); 0 for `no-cache` and for `no-store` (a page kept all the same).
    public var lifetime: TimeInterval?
    /// Whether the response said `Cache-Control: no-cache`: revalidate before every use.
    public var requiresRevalidation: Bool
    /// How long past its lifetime the page may be served while it is revalidated (RFC 5861).
    public var staleWhileRevalidate: TimeInterval?
    /// How long past its lifetime the page may be served when revalidating it fails (RFC 5861).
    public var staleIfError: TimeInterval?
    /// The request headers the response varied on, lowercased.
    public var vary: [String]
    /// The fingerprint of the request's values of the ``vary`` headers.
    public var varyKey: String?
    /// Whether a refresh marked the page unverified since the network last confirmed it.
    public var isUnverified: Bool
    /// The gaps of a feed on this page: places after its items where the server has items no
    /// page holds (a SQLite cache counts them; 0 elsewhere).
    public var gapCount = 0

    /// Makes a page's row; for backends.
    package init(
        index: Int, generation: Int, token: PageToken?, nextToken: PageToken?, validators: PageValidators,
        fetchedAt: Date, itemCount: Int, isSuperseded: Bool, verifiedAt: Date?, digest: String?,
        lifetime: TimeInterval?, requiresRevalidation: Bool, staleWhileRevalidate: TimeInterval?,
        staleIfError: TimeInterval?, vary: [String], varyKey: String?, isUnverified: Bool
    ) {
        self.index = index
        self.generation = generation
        self.token = token
        self.nextToken = nextToken
        self.validators = validators
        self.fetchedAt = fetchedAt
        self.itemCount = itemCount
        self.isSuperseded = isSuperseded
        self.verifiedAt = verifiedAt
        self.digest = digest
        self.lifetime = lifetime
        self.requiresRevalidation = requiresRevalidation
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
        self.vary = vary
        self.varyKey = varyKey
        self.isUnverified = isUnverified
    }

    /// How a later request can ask whether the page changed.
    public var validatorKind: ValidatorKind {
        if validators.etag != nil { return .etag }
        if validators.lastModified != nil { return .lastModified }
        return .digest
    }

    /// How a cached page is revalidated.
    public enum ValidatorKind: String, Hashable, Sendable, CaseIterable {
        /// A conditional request with `If-None-Match`.
        case etag
        /// A conditional request with `If-Modified-Since`.
        case lastModified = "last-modified"
        /// A plain request whose items are compared by digest.
        case digest
    }

    /// When the page stops being fresh: ``verifiedAt`` plus its lifetime, or `maxAge` when it has none.
    ///
    /// `nil` when neither is known: such a page is served as it is until a refresh.
    public func expiresAt(maxAge: TimeInterval? = nil) -> Date? {
        guard let verifiedAt, let lifetime = lifetime ?? maxAge else { return nil }
        return verifiedAt.addingTimeInterval(lifetime)
    }

    /// Whether the page may be served at `now` without asking the network.
    ///
    /// Not when a refresh marked it unverified, when its generation is older,
    /// when its response said `no-cache`, or when it is older than its lifetime
    /// (or `maxAge` when it has no lifetime). A page with neither is fresh until a refresh.
    package func isFresh(at now: Date, maxAge: TimeInterval? = nil) -> Bool {
        guard !isSuperseded, !isUnverified, !requiresRevalidation else { return false }
        guard let expiresAt = expiresAt(maxAge: maxAge) else { return true }
        return now < expiresAt
    }

    /// Whether the page has a known lifetime (or `maxAge`) and is within it at `now`.
    public func isWithinLifetime(at now: Date, maxAge: TimeInterval? = nil) -> Bool {
        guard !isSuperseded, !isUnverified, !requiresRevalidation, let expiresAt = expiresAt(maxAge: maxAge) else {
            return false
        }
        return now < expiresAt
    }
}

/// A cached page with its items, in the server's order.
public struct StoredPage: Hashable, Sendable {
    /// The page's row.
    public var info: PageInfo
    /// The items, in order.
    public var items: [RawItem]
    /// The keys of the items edited locally (saved with `SQLiteCache.saveItem(_:type:now:)`)
    /// since a fetched page last brought them; empty for a page read by a range of positions.
    public var editedKeys: Set<ItemKey> = []

    /// Makes a page with its items; for backends.
    package init(info: PageInfo, items: [RawItem], editedKeys: Set<ItemKey> = []) {
        self.info = info
        self.items = items
        self.editedKeys = editedKeys
    }

    /// The page as the core's `Page`, as its source once delivered it.
    public var page: Page<RawItem> {
        Page(items: items, token: info.token, nextToken: info.nextToken, validators: info.validators)
    }
}
