import Foundation
import Slippers

/// Where a cache keeps its lists, pages and items: the seam between the sync side
/// (``ListSync``), the inspection commands and a database.
///
/// Two backends implement it: `SQLiteCache`, an SQLite file through GRDB (the embedded
/// default, for apps and the command line), and `PostgresCache` in the `SlippersPostgres`
/// product, one PostgreSQL database for a fleet of workers. Both keep the same guarantees: a
/// page is saved with the list's resume point in one transaction, a list's pages
/// `0..<currentPageCount` are its committed prefix, and items are stored once per type and id.
///
/// The pager, offline writes and the cache budget are the SQLite file's: they need
/// `SQLiteCache` itself.
///
/// It is the sum of what each kind of caller needs, so that code asks for no more than it uses
/// (as GRDB's `DatabaseReader` and `DatabaseWriter` do): ``CacheReader`` to inspect,
/// ``SyncStorage`` to sync pages, ``CacheAdministration`` to invalidate and evict,
/// ``AccountStorage`` to keep accounts apart, ``SearchableStorage`` to search.
///
/// ```swift
/// func report(_ storage: some CacheReader) async throws {
///     for list in try await storage.lists() {
///         print(list.key, list.itemCount)
///     }
/// }
/// ```
public protocol CacheStorage: CacheReader, SyncStorage, CacheAdministration, AccountStorage, SearchableStorage {
    /// Closes the cache's connections: a file's database, a PostgreSQL database's sessions. The
    /// cache is not used after it.
    func close() async throws
}

/// What inspecting a cache needs: its lists, pages and items as they are stored, and its figures.
/// Reading changes nothing.
public protocol CacheReader: Sendable {
    /// Where the cache is, for people: a file's path, or a database's URL without its password.
    var locationDescription: String { get }

    /// Every list with its statistics, ordered by key.
    func lists() async throws -> [ListInfo]

    /// The rows of a list's cached pages, in order.
    ///
    /// - throws: ``CacheError/listNotFound(key:)``, or the backend's error.
    func pages(in key: String) async throws -> [PageInfo]

    /// The cached page at `index` with its items, or `nil` when it is not cached.
    func page(at index: Int, in key: String) async throws -> StoredPage?

    /// Calls `body` with each item of a list in list order, each id once, without loading them all.
    ///
    /// - throws: ``CacheError/listNotFound(key:)``, what `body` throws, or the backend's error.
    func forEachItem(in key: String, _ body: (RawItem) throws -> Void) async throws

    /// A stored item by type and id, or `nil`.
    func item(type: String, key: ItemKey) async throws -> StoredItem?

    /// The stored item types `name` stands for: itself, or the types of an origin's items named so.
    func itemTypes(named name: String) async throws -> [String]

    /// The key of the list a person typed: `typed` itself when a list has it, else the
    /// key with its credential query values masked (`?access_token=***`, as keys keep them) when
    /// a list has that one, so a list synced from `…?access_token=abc` is found by the URL as
    /// typed; `typed` when neither is cached.
    func listKey(typed: String) async throws -> String

    /// Counts and sizes of the whole cache.
    func stats() async throws -> CacheStats

    /// What is wrong with the cache, if anything.
    func diagnose() async throws -> Diagnosis
}

/// What a sync needs of a cache (``ListSync``, its revalidation, a newest-first list's head,
/// an incremental sync's watermark): a list's resume point, saving its pages in order, and the
/// checks a walk makes against what is saved.
public protocol SyncStorage: Sendable {
    /// A list with its statistics, or `nil` when it is not cached.
    func list(_ key: String) async throws -> ListInfo?

    /// Saves a fetched page, its items and the list's resume point in one transaction;
    /// see `SQLiteCache.savePage(_:at:in:now:)` for the rules both backends follow.
    ///
    /// - throws: ``CacheError/pageOutOfOrder(list:index:)`` when page `index - 1` is not
    ///   cached in the current generation, ``CacheError/itemTypeMismatch(list:stored:requested:)``,
    ///   or the backend's error.
    func savePage(_ page: Page<RawItem>, at index: Int, in list: ListDescriptor) async throws
        -> ListHead

    /// Saves fetched pages that follow one another, the first at `index`, each as
    /// ``savePage(_:at:in:)`` saves it, in one transaction: pages that arrived together cost one
    /// commit. It stops at the first page that brings nothing new: a page after the list's first,
    /// with items and a next token, every item of which a page before it lists (a page of the
    /// current generation before `index`, or one of `pages` before it). That page and the pages
    /// after it are not written; a walk holds such a page (a server that repeats itself) at the
    /// cost of one round trip.
    ///
    /// - returns: The list's head after each page written, in order: fewer heads than pages when
    ///   one brought nothing new.
    /// - throws: As ``savePage(_:at:in:)``; when it throws, none of the pages is written.
    func savePagesUnlessNothingNew(_ pages: [Page<RawItem>], at index: Int, in list: ListDescriptor)
        async throws -> [ListHead]

    /// The tokens of the pages of a generation before `index`: the walk so far, for finding cycles.
    func walkedTokens(in key: String, before index: Int, generation: Int) async throws -> Set<PageToken>

    /// How many of `keys` no page of the current generation before `index` lists.
    func unlistedCount(of keys: Set<ItemKey>, before index: Int, in key: String) async throws -> Int

    /// Called before a sync of the list starts: a list being synced is never evicted meanwhile.
    func syncWillStart(_ key: String) async

    /// Called when a sync of the list ends, however it ends.
    func syncDidEnd(_ key: String) async

    /// Tells the backend's log that the page at `index` failed and is fetched again after `wait`.
    func pageWillBeRetried(at index: Int, in key: String, error: any Error, wait: Duration)

    // MARK: Revalidation

    /// The row of the cached page at `index` of a list, without its items; `nil` when it is not cached.
    func pageInfo(at index: Int, in key: String) async throws -> PageInfo?

    /// Records that the cached page at `index` is still current (its server answered `304 Not
    /// Modified`), in one transaction; nothing happens when the page is not cached.
    ///
    /// Only the page row changes: its verification and fetch times, and the validators the
    /// response sent (a validator it did not send is kept). No item row is rewritten. Page 0
    /// also ends the list's invalidation; a page of an older generation joins the current
    /// one when the page before it is current, and moves the resume point as a save would.
    ///
    /// - throws: ``CacheError/listNotFound(key:)``, or the backend's error.
    func markPageNotModified(at index: Int, in key: String, validators: PageValidators) async throws

    /// Saves a fetched page as ``savePage(_:at:in:)`` does, unless it holds the same items as the
    /// cached page at `index`, in one transaction: revalidation for servers that send no validator.
    ///
    /// A page whose items (keys and JSON, compared by a digest) and next token are the
    /// cached page's is unchanged: no item or membership row is written, no new generation starts
    /// (not even on page 0) and the resume point stays. Only the page row records the verification,
    /// with the response's validators and caching headers; a page of an older generation that is
    /// unchanged joins the current one. A last page still removes the cached pages past it.
    ///
    /// - returns: The list's head after the save, and whether the page was new, changed or unchanged.
    /// - throws: As ``savePage(_:at:in:)``.
    func savePageIfChanged(_ page: Page<RawItem>, at index: Int, in list: ListDescriptor) async throws
        -> PageSave

    // MARK: The head of a list whose new items come first

    /// Whether the list's new items come first: `nil` until ``setNewestFirst(_:for:)`` records it.
    func newestFirst(_ key: String) async throws -> Bool?

    /// Records whether the list's new items come first.
    ///
    /// - throws: ``CacheError/listNotFound(key:)``, or the backend's error.
    func setNewestFirst(_ newestFirst: Bool, for key: String) async throws

    /// How many of `items` a page of the list's current generation lists with the same JSON.
    func unchangedCount(of items: [RawItem], in key: String) async throws -> Int

    /// Merges the first items of a list, as its server now sends them, into the cached list, in one transaction.
    ///
    /// The items no page of the current generation lists go at the top of
    /// the list, in their order, before the first page's items; the others are
    /// updated where they stand (an item with a pending local write keeps it,
    /// as a saved page keeps it). No new generation starts and no page is
    /// removed. `total`, when given, becomes the list's announced total.
    ///
    /// - throws: ``CacheError/listNotFound(key:)`` when the list has no cached first page, or the
    ///   backend's error.
    func mergeHead(_ items: [RawItem], total: Int?, in list: ListDescriptor) async throws -> HeadMerge

    // MARK: Incremental sync

    /// The watermark of a list synced incrementally, or `nil` when it has none.
    func watermark(of key: String) async throws -> SyncWatermark?

    /// Stores the watermark of a list synced incrementally, replacing the one it had; `nil` removes it.
    func saveWatermark(_ watermark: SyncWatermark?, of key: String) async throws
}

/// What changing a cache by hand needs: invalidating lists, evicting them, reclaiming space.
public protocol CacheAdministration: Sendable {
    /// Invalidates a list: its pages stay readable and are fetched again on the next load.
    func invalidate(_ key: String) async throws

    /// Invalidates every list and returns how many there are.
    func invalidateAll() async throws -> Int

    /// Removes the lists whose newest page was fetched before `date`, and the items no page lists any more.
    func evict(olderThan date: Date) async throws -> EvictionReport

    /// Removes a list, its pages, and the items no other page lists.
    func evict(list key: String) async throws -> EvictionReport

    /// Removes the items no page lists and returns how many.
    func collectUnreferencedItems() async throws -> Int

    /// Gives the space of removed rows back.
    func vacuum() async throws
}

/// What keeping one person's lists apart from another's needs: the account a list is kept for,
/// and removing one account's data.
public protocol AccountStorage: Sendable {
    /// The account a list whose requests carry credentials with `credentialDigest`
    /// (``PageSource/credentialDigest``) is kept for when the caller declares none: derived from
    /// an HMAC-SHA-256 of the digest under this cache's key (never the credential itself);
    /// ``Account/anonymous`` for `nil`.
    func account(derivedFrom credentialDigest: String?) -> Account

    /// Deletes everything `account` holds, in one transaction: its lists and their pages,
    /// its items, its pending writes and its watermarks. The removed values leave the cache's
    /// bytes, not only its tables: an SQLite file deletes with `secure_delete` on and
    /// checkpoints its write-ahead log.
    ///
    /// - returns: What was removed.
    func removeAccount(_ account: Account) async throws -> AccountRemoval

    /// The accounts the cache holds lists, items or pending writes of, by name; the anonymous
    /// account among them when it holds any.
    func accounts() async throws -> [Account]
}

/// What offline search needs: the items of a list or a type that match a text.
public protocol SearchableStorage: Sendable {
    /// The cached items of a list or an item type (so of one account) whose string values match
    /// `text`, most relevant first: words ANDed, the last one a prefix, quoted text a phrase, case
    /// and diacritics ignored (see ``SearchPattern``); none for text without a word.
    func search(_ text: String, in scope: SearchScope, limit: Int) async throws -> [RawItem]
}

extension CacheStorage {
    /// The account a source's lists are kept for: `declared`, else the one its credentials derive, else anonymous.
    public func account(declared: Account?, credentialDigest: String?) -> Account {
        declared ?? account(derivedFrom: credentialDigest)
    }
}
