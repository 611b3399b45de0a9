/// Collects the values of an asynchronous sequence as they arrive, and lets a test wait for one.
///
/// Tests order events by waiting for a value that matches, never by sleeping.
public final class Recorder<Value: Sendable>: Sendable {
    private let task: Task<Void, Never>
    private let box: Box

    private actor Box {
        typealias Waiter = (predicate: @Sendable (Value) -> Bool, continuation: CheckedContinuation<Void, Never>)
        var values: [Value] = []
        var waiters: [Waiter] = []

        func append(_ value: Value) {
            values.append(value)
            var waiting: [Waiter] = []
            for waiter in waiters {
                if waiter.predicate(value) { waiter.continuation.resume() } else { waiting.append(waiter) }
            }
            waiters = waiting
        }

        func wait(for predicate: @escaping @Sendable (Value) -> Bool) async {
            if values.contains(where: predicate) { return }
            await withCheckedContinuation { waiters.append((predicate, $0)) }
        }
    }

    /// Starts collecting the values of `sequence`.
    public init(_ sequence: AsyncStream<Value>) {
        let box = Box()
        self.box = box
        task = Task {
            for await value in sequence { await box.append(value) }
        }
    }

    deinit { task.cancel() }

    /// The values received so far, in order.
    public var values: [Value] { get async { await box.values } }

    /// Returns once a value matching `predicate` has been received.
    public func wait(for predicate: @escaping @Sendable (Value) -> Bool) async {
        await box.wait(for: predicate)
    }
}
