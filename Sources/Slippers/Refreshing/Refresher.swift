/// A ``Refreshable`` backed by a closure.
///
/// For example:
///
/// ```swift
/// let refresher = Refresher { pager.refresh() }
/// try refresher.refresh()
/// ```
public final class Refresher: Refreshable {
    private let action: @Sendable () throws -> Void

    /// Creates a refresher that runs `action` on every refresh.
    public init(_ action: @escaping @Sendable () throws -> Void) {
        self.action = action
    }

    /// Runs the closure.
    public func refresh() throws {
        try action()
    }
}

/// An ``AsyncRefreshable`` backed by an asynchronous closure.
public final class AsyncRefresher: AsyncRefreshable {
    private let action: @Sendable () async throws -> Void

    /// Creates a refresher that runs `action` on every refresh.
    public init(_ action: @escaping @Sendable () async throws -> Void) {
        self.action = action
    }

    /// Runs the closure.
    public func refresh() async throws {
        try await action()
    }
}
