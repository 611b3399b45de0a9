import Dispatch
import Foundation
import Synchronization

/// Runs asynchronous work from the benchmark's synchronous code, waiting for its end.
///
/// The benchmark is synchronous on purpose (see ``FigureGroup``); the work runs
/// on the cooperative pool while the calling thread waits, which is safe
/// because the caller is never one of the pool's threads.
enum Blocking {
    /// The value `body` returns, or the error it throws.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result = await Self.result(of: body)
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// The value `body` returns on the main actor, or the error it throws: the calling thread, the
    /// main one, runs the main run loop while it waits, so that the main actor's jobs run.
    static func runOnMainActor<Value: Sendable>(
        _ body: @escaping @MainActor @Sendable () async throws -> Value
    ) throws -> Value {
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        Task { @MainActor in
            let result = await Self.result(of: body)
            outcome.withLock { $0 = result }
        }
        while outcome.withLock({ $0 == nil }) {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
        }
        return try outcome.withLock { $0! }.get()
    }

    /// Runs `body` to its end, for clean-ups whose failure changes nothing.
    static func runIgnoringErrors(_ body: @escaping @Sendable () async -> Void) {
        _ = try? run { await body() }
    }

    /// What `body` returned or threw.
    private static func result<Value>(
        isolation: isolated (any Actor)? = #isolation, of body: () async throws -> Value
    ) async -> Result<Value, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
