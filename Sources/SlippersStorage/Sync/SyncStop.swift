import Synchronization

/// A request to the syncs a task runs to stop at their next page boundary: a server's
/// graceful shutdown asks it, and each sync ends within the time its pages in flight take.
///
/// A ``ListSync`` run under a stop (``current``, a task-local value) asks for no
/// page once the stop is requested, saves the pages already in flight in their order,
/// and then throws `CancellationError`: what it saved stays saved, and the next run
/// resumes after it. A program that cannot wait for the pages in flight cancels the task
/// as well.
///
/// For example:
///
/// ```swift
/// let stop = SyncStop()
/// let running = Task { try await SyncStop.$current.withValue(stop) { try await sync.run() } }
/// stop.request()  // on SIGTERM
/// _ = try? await running.value
/// ```
public final class SyncStop: Sendable {
    private let requested = Mutex(false)

    /// The stop of the syncs the current task runs; `nil` (never stopped) unless set with `withValue`.
    @TaskLocal public static var current: SyncStop?

    /// Creates a stop not yet requested.
    public init() {}

    /// Asks the syncs under this stop to end at their next page boundary.
    public func request() {
        requested.withLock { $0 = true }
    }

    /// Whether the stop was requested.
    public var isRequested: Bool {
        requested.withLock { $0 }
    }

    /// Whether the current task's syncs were asked to stop.
    static var isRequestedHere: Bool {
        current?.isRequested ?? false
    }
}
