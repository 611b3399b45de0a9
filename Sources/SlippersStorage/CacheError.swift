import Slippers

/// A failure any cache backend reports the same way: a collection that is not cached, a page saved
/// out of order, a walk that stopped instead of paging forever, an operation the backend cannot do.
///
/// The error is its ``code`` and the context the code needs (the collection, the page, the token…);
/// a new code is not a breaking change. Compare codes with `==`:
///
/// ```swift
/// do {
///     try await storage.invalidate("GET /posts")
/// } catch let error as CacheError where error.code == .collectionNotFound {
///     print("not cached:", error.collection ?? "")
/// }
/// ```
///
/// Its ``description`` is one readable line naming the collection and what to do. A backend's own
/// failures (an SQLite file's, a PostgreSQL database's) come as that backend's error.
public struct CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: one of the static members, compared with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case collectionNotFound, itemTypeMismatch, pageOutOfOrder, tokenDidNotAdvance, pageRepeated
            case listStalled, unsupported
        }

        fileprivate let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// No collection has the key.
        public static let collectionNotFound = Code(.collectionNotFound)
        /// The collection holds items of another type than the one asked for.
        public static let itemTypeMismatch = Code(.itemTypeMismatch)
        /// A page was saved after a gap: page `index` needs page `index - 1` in the current generation.
        public static let pageOutOfOrder = Code(.pageOutOfOrder)
        /// A source answered with a next token it had already given: following it would loop forever.
        public static let tokenDidNotAdvance = Code(.tokenDidNotAdvance)
        /// A page listed the same ids as the page before it: the server ignores the page asked for.
        public static let pageRepeated = Code(.pageRepeated)
        /// Several pages in a row brought no item the walk had not met: the list does not end by itself.
        public static let listStalled = Code(.listStalled)
        /// The backend cannot do this yet (an SQLite file can).
        public static let unsupported = Code(.unsupported)

        /// The code's name, as in `collectionNotFound`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The key of the collection concerned; `nil` for ``Code/unsupported``.
    public let collection: String?
    /// The index of the page concerned, from 0: the page saved out of order, or the page that repeated the one before.
    public let pageIndex: Int?
    /// How many pages in a row brought no new item, for ``Code/listStalled``.
    public let pageCount: Int?
    /// The page token the source repeated, for ``Code/tokenDidNotAdvance``.
    public let token: String?
    /// The type of the items the collection holds, for ``Code/itemTypeMismatch``.
    public let storedItemType: String?
    /// The type of the items asked for, for ``Code/itemTypeMismatch``.
    public let requestedItemType: String?
    /// What was asked of the backend, for ``Code/unsupported``.
    public let operation: String?
    /// Where the cache is, for people, for ``Code/unsupported``.
    public let location: String?

    private init(
        _ code: Code, collection: String? = nil, pageIndex: Int? = nil, pageCount: Int? = nil, token: String? = nil,
        storedItemType: String? = nil, requestedItemType: String? = nil, operation: String? = nil,
        location: String? = nil
    ) {
        self.code = code
        self.collection = collection
        self.pageIndex = pageIndex
        self.pageCount = pageCount
        self.token = token
        self.storedItemType = storedItemType
        self.requestedItemType = requestedItemType
        self.operation = operation
        self.location = location
    }

    /// No collection has `key`.
    public static func collectionNotFound(key: String) -> CacheError {
        CacheError(.collectionNotFound, collection: key)
    }

    /// `collection` holds `stored` items, not the `requested` ones.
    public static func itemTypeMismatch(collection: String, stored: String, requested: String) -> CacheError {
        CacheError(.itemTypeMismatch, collection: collection, storedItemType: stored, requestedItemType: requested)
    }

    /// Page `index` of `collection` was saved before page `index - 1`.
    public static func pageOutOfOrder(collection: String, index: Int) -> CacheError {
        CacheError(.pageOutOfOrder, collection: collection, pageIndex: index)
    }

    /// The source of `collection` gave the next token `token` again.
    public static func tokenDidNotAdvance(collection: String, token: String) -> CacheError {
        CacheError(.tokenDidNotAdvance, collection: collection, token: token)
    }

    /// Page `index` of `collection` listed the same ids as the page before it.
    public static func pageRepeated(collection: String, index: Int) -> CacheError {
        CacheError(.pageRepeated, collection: collection, pageIndex: index)
    }

    /// The last `pages` pages of `collection` brought no item not already listed.
    public static func listStalled(collection: String, pages: Int) -> CacheError {
        CacheError(.listStalled, collection: collection, pageCount: pages)
    }

    /// The backend at `location` cannot do `operation`.
    public static func unsupported(operation: String, location: String) -> CacheError {
        CacheError(.unsupported, operation: operation, location: location)
    }

    public var description: String {
        let collection = self.collection ?? ""
        let index = pageIndex ?? 0
        return switch code.base {
        case .collectionNotFound:
            "No collection \"\(CredentialQuery.masking(collection).shortenedForErrors)\" in the cache"
        case .itemTypeMismatch:
            "The collection \"\(collection)\" holds \(storedItemType ?? "") items, not \(requestedItemType ?? "")"
        case .pageOutOfOrder:
            "Cannot save page \(index) of \"\(collection)\" before page \(index - 1)"
        case .tokenDidNotAdvance:
            "The source of \"\(collection)\" repeated the page token \"\((token ?? "").shortenedForErrors)\"; "
                + "stopped instead of looping"
        case .pageRepeated:
            "The server sent the same items for page \(index + 1) of \"\(collection)\" as for the page before; "
                + "stopped instead of paging forever (check the pagination style)"
        case .listStalled:
            "The last \(pageCount ?? 0) pages of \"\(collection)\" brought no item not already listed; "
                + "stopped instead of paging forever (they were not saved)"
        case .unsupported:
            "\(location ?? "The cache") cannot do this: \(operation ?? "this") needs an SQLite cache file"
        }
    }
}
