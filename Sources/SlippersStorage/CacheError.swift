import Slippers

/// A failure any cache backend reports the same way: a list that is not cached, a page saved
/// out of order, a walk that stopped instead of paging forever, an operation the backend cannot do.
///
/// The error is its ``code`` and the context the code needs (the list, the page, the token…);
/// a new code is not a breaking change. Compare codes with `==`:
///
/// ```swift
/// do {
///     try await storage.invalidate("GET /posts")
/// } catch let error as CacheError where error.code == .listNotFound {
///     print("not cached:", error.list ?? "")
/// }
/// ```
///
/// Its ``description`` is one readable line naming the list and what to do. A backend's own
/// failures (an SQLite file's, a PostgreSQL database's) come as that backend's error.
public struct CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong: one of the static members, compared with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case listNotFound, itemTypeMismatch, pageOutOfOrder, tokenDidNotAdvance, pageRepeated
            case listStalled, unsupported
        }

        fileprivate let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// No list has the key.
        public static let listNotFound = Code(.listNotFound)
        /// The list holds items of another type than the one asked for.
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

        /// The code's name, as in `listNotFound`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The key of the list concerned; `nil` for ``Code/unsupported``.
    public let list: String?
    /// The index of the page concerned, from 0: the page saved out of order, or the page that repeated the one before.
    public let pageIndex: Int?
    /// How many pages in a row brought no new item, for ``Code/listStalled``.
    public let pageCount: Int?
    /// The page token the source repeated, for ``Code/tokenDidNotAdvance``.
    public let token: String?
    /// The type of the items the list holds, for ``Code/itemTypeMismatch``.
    let storedItemType: String?
    /// The type of the items asked for, for ``Code/itemTypeMismatch``.
    let requestedItemType: String?
    /// What was asked of the backend, for ``Code/unsupported``.
    let operation: String?
    /// Where the cache is, for people, for ``Code/unsupported``.
    let location: String?

    private init(
        _ code: Code, list: String? = nil, pageIndex: Int? = nil, pageCount: Int? = nil, token: String? = nil,
        storedItemType: String? = nil, requestedItemType: String? = nil, operation: String? = nil,
        location: String? = nil
    ) {
        self.code = code
        self.list = list
        self.pageIndex = pageIndex
        self.pageCount = pageCount
        self.token = token
        self.storedItemType = storedItemType
        self.requestedItemType = requestedItemType
        self.operation = operation
        self.location = location
    }

    /// No list has `key`.
    public static func listNotFound(key: String) -> CacheError {
        CacheError(.listNotFound, list: key)
    }

    /// `list` holds `stored` items, not the `requested` ones.
    public static func itemTypeMismatch(list: String, stored: String, requested: String) -> CacheError {
        CacheError(.itemTypeMismatch, list: list, storedItemType: stored, requestedItemType: requested)
    }

    /// Page `index` of `list` was saved before page `index - 1`.
    public static func pageOutOfOrder(list: String, index: Int) -> CacheError {
        CacheError(.pageOutOfOrder, list: list, pageIndex: index)
    }

    /// The source of `list` gave the next token `token` again.
    public static func tokenDidNotAdvance(list: String, token: String) -> CacheError {
        CacheError(.tokenDidNotAdvance, list: list, token: token)
    }

    /// Page `index` of `list` listed the same ids as the page before it.
    public static func pageRepeated(list: String, index: Int) -> CacheError {
        CacheError(.pageRepeated, list: list, pageIndex: index)
    }

    /// The last `pages` pages of `list` brought no item not already listed.
    public static func listStalled(list: String, pages: Int) -> CacheError {
        CacheError(.listStalled, list: list, pageCount: pages)
    }

    /// The backend at `location` cannot do `operation`.
    public static func unsupported(operation: String, location: String) -> CacheError {
        CacheError(.unsupported, operation: operation, location: location)
    }

    public var description: String {
        let list = self.list ?? ""
        let index = pageIndex ?? 0
        return switch code.base {
        case .listNotFound:
            "No list \"\(CredentialQuery.masking(list).shortenedForErrors)\" in the cache"
        case .itemTypeMismatch:
            "The list \"\(list)\" holds \(storedItemType ?? "") items, not \(requestedItemType ?? "")"
        case .pageOutOfOrder:
            "Cannot save page \(index) of \"\(list)\" before page \(index - 1)"
        case .tokenDidNotAdvance:
            "The source of \"\(list)\" repeated the page token \"\((token ?? "").shortenedForErrors)\"; "
                + "stopped instead of looping"
        case .pageRepeated:
            "The server sent the same items for page \(index + 1) of \"\(list)\" as for the page before; "
                + "stopped instead of paging forever (check the pagination style)"
        case .listStalled:
            "The last \(pageCount ?? 0) pages of \"\(list)\" brought no item not already listed; "
                + "stopped instead of paging forever (they were not saved)"
        case .unsupported:
            "\(location ?? "The cache") cannot do this: \(operation ?? "this") needs an SQLite cache file"
        }
    }
}
