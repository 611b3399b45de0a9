/// Something whose content can be reloaded on command.
///
/// A pager goes back to its first page; a cache marks its data unverified. The
/// requirement may throw, so that a refresh that writes (a database
/// invalidation, say) can report its failure; conformers that cannot fail
/// implement it without `throws`.
public protocol Refreshable: AnyObject, Sendable {
    /// Reloads the content from its source.
    func refresh() throws
}

/// Something whose content can be reloaded on command by work that suspends,
/// such as a network request.
///
/// The asynchronous form of ``Refreshable``.
public protocol AsyncRefreshable: AnyObject, Sendable {
    /// Reloads the content from its source.
    func refresh() async throws
}
