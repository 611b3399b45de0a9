/// A read-only SQL view of one item type's cached items: one row per item, one column per member.
///
/// The cache makes a view for each item type as pages are saved, and makes it again when a
/// saved page brings a member its items did not have, so `sqlite3`, Datasette or any SQL tool
/// read `posts` with columns rather than JSON bodies:
///
/// ```sh
/// sqlite3 cache.sqlite 'SELECT title, author_name FROM posts ORDER BY score DESC LIMIT 5'
/// ```
///
/// - The view is named after the item type without its origin (`posts` for
///   `posts@https://api.example.com`), unless two origins share that name; a name a table of
///   the cache already has gets `_items` appended.
/// - Every account's items of the type are in one view; ``accountColumn`` names the account of
///   each row (`NULL` for the anonymous account), so a query keeps to one account with
///   `WHERE cache_account = 'user-42'`.
/// - Each top-level member is a column; an object's members are flattened one level as
///   `author_name`; an array is its JSON text. Values are cast to the SQLite type the values
///   seen share (`INTEGER`, `REAL`, `TEXT`; booleans are `INTEGER` 0 or 1).
/// - Items deleted locally are left out; items with pending writes show their written values.
public struct ItemView: Sendable, Hashable, Codable {
    /// A column of a view: the member it reads and the type its values are cast to.
    public struct Column: Sendable, Hashable, Codable {
        /// The column's name: the member's, or `member_nested` for a member of a nested object.
        public let name: String
        /// The member read: one name, or two for a member of a nested object.
        public let path: [String]
        /// The SQLite type the values are cast to; `nil` when the values seen have different kinds.
        public let type: String?
    }

    /// The column that names each row's account (`NULL` for the anonymous account).
    public static let accountColumn = "cache_account"
    /// The column that holds each row's item key.
    public static let keyColumn = "cache_key"

    /// The view's name, as SQL reads it once quoted.
    public let name: String
    /// The item types whose items it shows, one per account (and origin, when they share the name).
    public let itemTypes: [String]
    /// The member columns, after ``accountColumn`` and ``keyColumn``.
    public let columns: [Column]
    /// The `SELECT` the view runs.
    public let sql: String
}
