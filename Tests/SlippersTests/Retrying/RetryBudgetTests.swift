import Slippers
import Synchronization
import Testing

@Suite struct RetryBudgetTests {
    struct Failure: TransientError {
        var isTransient: Bool
    }

    /// Fails the first `failures` calls with `error`, then returns the number of calls.
    final class Operation: Sendable {
        let calls = Mutex(0)
        let failures: Int
        let error: Failure

        init(failures: Int, transient: Bool = true) {
            self.failures = failures
            self.error = Failure(isTransient: transient)
        }

        func callAsFunction() throws -> Int {
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            if call <= failures { throw error }
            return call
        }
    }

    // A budget no loaded machine can spend, with short waits: the tests are about what is retried.
    private let quick = RetryBudget(duration: .seconds(3600), baseDelay: .milliseconds(1), maxDelay: .milliseconds(4))

    @Test func transientFailuresAreRetriedUntilTheOperationSucceeds() async throws {
        let operation = Operation(failures: 5)
        var retries = 0
        let result = try await quick.run(retries: &retries) { try operation() }
        #expect(result == 6)
        #expect(retries == 5)
    }

    @Test func eachRetryIsReportedBeforeItsWait() async throws {
        let operation = Operation(failures: 2)
        var retries = 0
        var reported: [Duration] = []
        _ = try await quick.run(retries: &retries, onRetry: { _, wait in reported.append(wait) }, { try operation() })
        #expect(reported.count == 2)
        #expect(reported.allSatisfy { $0 <= .milliseconds(4) })
    }

    @Test func aFailureThatIsNotTransientIsThrownAtOnce() async throws {
        let operation = Operation(failures: 5, transient: false)
        await #expect(throws: Failure.self) { try await quick.run { try operation() } }
        #expect(operation.calls.withLock { $0 } == 1)
    }

    @Test func anErrorThatSaysNothingOfItselfIsNotRetried() async throws {
        struct Plain: Error {}
        await #expect(throws: Plain.self) { try await quick.run { throw Plain() } }
    }

    @Test func noBudgetMeansTheFirstFailureIsFinal() async throws {
        let operation = Operation(failures: 1)
        await #expect(throws: Failure.self) { try await RetryBudget.none.run { try operation() } }
        #expect(operation.calls.withLock { $0 } == 1)
    }

    @Test func aSpentBudgetThrowsTheLastError() async throws {
        let short = RetryBudget(duration: .milliseconds(30), baseDelay: .milliseconds(5), maxDelay: .milliseconds(10))
        let operation = Operation(failures: .max)
        await #expect(throws: Failure.self) { try await short.run { try operation() } }
        #expect(operation.calls.withLock { $0 } > 1)
    }

    @Test func cancellingTheTaskStopsTheWaiting() async throws {
        let patient = RetryBudget(duration: .seconds(600), baseDelay: .seconds(60), maxDelay: .seconds(60))
        let operation = Operation(failures: .max)
        let task = Task { try await patient.run { try operation() } }
        while operation.calls.withLock({ $0 }) == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
