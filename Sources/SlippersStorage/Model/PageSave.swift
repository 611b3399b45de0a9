/// What ``SyncStorage/savePageIfChanged(_:at:in:)`` did with a fetched page.
public struct PageSave: Hashable, Sendable {
    /// Whether the page was new to the cache, replaced a different copy, or matched the cached one.
    public enum Outcome: String, Hashable, Sendable {
        /// No page was cached at its index.
        case new
        /// The cached page held other items (or led to another next page): it was rewritten.
        case changed
        /// The cached page held the same items: only its row recorded the verification.
        case unchanged
    }

    /// The list's head after the save.
    public var head: ListHead
    /// What happened to the page.
    public var outcome: Outcome

    /// A save's head and outcome.
    public init(head: ListHead, outcome: Outcome) {
        self.head = head
        self.outcome = outcome
    }
}
