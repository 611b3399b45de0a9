import Foundation
import Slippers

/// A change made to a cached item locally and not yet acknowledged by the server: one row of the outbox.
///
/// The change is already in the cache (every list showing the item shows it); the
/// write says what to send for it. Writes of one item are sent in the order they were made.
public struct PendingWrite: Hashable, Sendable, Codable {
    /// What a write does to its item.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A JSON merge patch (RFC 7386) of the item: the members it names change, `null` removes one.
        case merge
        /// The whole item replaced.
        case replace
        /// The item deleted: it leaves every list.
        case delete
        /// An item made locally, shown in its list at once and created on the server by a `POST` to
        /// the list's URL. The server's answer (the item with the id it assigned) replaces it.
        case insert
    }

    /// Where a write stands.
    public enum State: String, Hashable, Sendable, Codable, CaseIterable {
        /// Not yet acknowledged: sent at the next push.
        case pending
        /// Refused by the server (a `4xx` other than a conflict): kept, with the server's
        /// reason, until it is retried or discarded. Its change stays shown.
        case failed
        /// A `POST` whose answer never arrived (a kill, a timeout, a dropped connection, a `5xx`),
        /// and that the server could not be checked for: it may or may not hold the item. It is
        /// not sent again blindly; its reason says what to check, until it is retried or discarded.
        case inDoubt = "in_doubt"
    }

    /// The write's number in the outbox, in the order writes were made.
    public var id: Int64
    /// The type the item is filed under.
    public var itemType: String
    /// Whose write this is: the account of its item's type. Only a push of that account sends it.
    public var account: Account { ListKey.account(ofItemType: itemType).account }
    /// The item's id.
    public var itemKey: ItemKey
    /// What the write does.
    public var kind: Kind
    /// The HTTP method it is sent with: `PATCH`, `PUT`, `DELETE` or `POST`.
    public var method: String
    /// The item's URL; for an insert, the list's.
    public var url: String
    /// The JSON sent: the patch or the whole item; `nil` for a delete.
    public var body: Data?
    /// Sent as `Idempotency-Key`, the same for every attempt: a server that saw it does not apply it twice.
    public var idempotencyKey: String
    /// The version the change was based on, sent as `If-Match`: an `ETag`, or a field's value.
    public var baseVersion: String?
    /// Whether it is waiting or was refused.
    public var state: State
    /// The server's reason, for a failed write.
    public var error: String?
    /// How many times it was sent.
    public var attempts: Int
    /// When it was made.
    public var createdAt: Date

    /// Creates a write, as the cache reads it back.
    public init(
        id: Int64, itemType: String, itemKey: ItemKey, kind: Kind, method: String, url: String, body: Data?,
        idempotencyKey: String, baseVersion: String?, state: State, error: String?, attempts: Int, createdAt: Date
    ) {
        self.id = id
        self.itemType = itemType
        self.itemKey = itemKey
        self.kind = kind
        self.method = method
        self.url = url
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.baseVersion = baseVersion
        self.state = state
        self.error = error
        self.attempts = attempts
        self.createdAt = createdAt
    }
}

/// A change to keep in the outbox: what it does to the item and how it is sent.
public struct WriteRequest: Hashable, Sendable {
    /// What the write does.
    public var kind: PendingWrite.Kind
    /// The merge patch or the whole item; ignored for a delete.
    public var json: Data?
    /// The HTTP method; by default `PATCH` for a merge, `PUT` for a replace, `DELETE` for a delete,
    /// `POST` for an insert.
    var method: String
    /// The item's URL.
    public var url: String
    /// The version the change is based on, sent as `If-Match`; `nil` when unknown.
    var baseVersion: String?

    /// Creates a change to keep in the outbox.
    public init(
        kind: PendingWrite.Kind, json: Data? = nil, method: String? = nil, url: String, baseVersion: String? = nil
    ) {
        self.kind = kind
        self.json = json
        self.method =
            method
            ?? {
                switch kind {
                case .merge: "PATCH"
                case .replace: "PUT"
                case .delete: "DELETE"
                case .insert: "POST"
                }
            }()
        self.url = url
        self.baseVersion = baseVersion
    }
}
