import Slippers

/// What removing an account deleted (``AccountStorage/removeAccount(_:)``).
public struct AccountRemoval: Hashable, Sendable, Codable {
    /// The account removed, by name (`anonymous` for the anonymous account).
    public var account: String
    /// The number of lists removed, with their pages.
    public var lists: Int = 0
    /// The number of items removed.
    public var items: Int = 0
    /// The number of pending writes removed, never sent.
    public var pendingWrites: Int = 0
    /// The number of watermarks removed.
    public var watermarks: Int = 0

    /// Creates a report.
    public init(account: Account, lists: Int = 0, items: Int = 0, pendingWrites: Int = 0, watermarks: Int = 0) {
        self.account = account.description
        self.lists = lists
        self.items = items
        self.pendingWrites = pendingWrites
        self.watermarks = watermarks
    }
}
