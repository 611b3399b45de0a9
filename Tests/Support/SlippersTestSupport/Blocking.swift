import Dispatch

/// Runs blocking work (waiting for a process, reading a pipe, sleeping a thread) off Swift's cooperative pool.
///
/// On a 2-core machine the cooperative pool has two threads. A test that
/// blocks one of them can starve servers and tasks of the same process, such
/// as the fixture server a child process is talking to; Dispatch's global
/// queue grows threads instead.
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
    }
}
