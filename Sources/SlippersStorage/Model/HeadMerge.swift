/// What merging a list's head into the cache did: see ``SyncStorage/mergeHead(_:total:in:)``.
public struct HeadMerge: Hashable, Sendable {
    /// The items no cached page listed: they were put at the top of the list.
    public var added: Int
    /// The items listed already whose JSON changed: they were updated where they stand.
    package var updated: Int

    /// Makes a merge's outcome; for backends.
    package init(added: Int, updated: Int) {
        self.added = added
        self.updated = updated
    }
}
