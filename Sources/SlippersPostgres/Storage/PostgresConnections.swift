import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The connection a cache's operations take turns on: made when first needed, made again after
/// it was lost (the server restarted or went away), never shared by two operations at once.
///
/// One connection, not a pool: a cache's operations run one after another (a sync saves its
/// pages in order), and a lost connection is then simply replaced by the next operation, which
/// fails fast instead of waiting for a pool to recover.
final class PostgresConnections: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        var nextID = 1
    }

    private let configuration: PostgresConnection.Configuration
    private let quotedSchema: String
    private let logger: Logger
    private let state = Mutex(State())

    init(configuration: PostgresConnection.Configuration, quotedSchema: String, logger: Logger) {
        self.configuration = configuration
        self.quotedSchema = quotedSchema
        self.logger = logger
    }

    deinit {
        // A connection must be closed before it goes: the close completes on its event loop,
        // holding the connection until then.
        guard let connection = state.withLock({ $0.connection }) else { return }
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Runs `body` on the connection, alone; a connection lost meanwhile is replaced next time.
    ///
    /// An operation that has not ended after ``operationLimit`` fails: its connection is closed
    /// and left to it, and the next operation gets a new one. A query sent on a connection the
    /// server is closing (a restart) was seen never to end.
    func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withConnectionStreaming { connection in
            try await Self.bounded(by: Self.operationLimit) { try await body(connection) }
        }
    }

    /// Runs `body` on the connection, alone, however long it takes: for streaming rows to a
    /// caller's closure, which cannot be left behind.
    func withConnectionStreaming<Result>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        await acquire()
        defer { release() }
        let connection = try await current()
        do {
            return try await body(connection)
        } catch {
            if connection.isClosed || Self.isConnectionLost(error) { await drop(connection) }
            throw error
        }
    }

    /// How long one operation may take before its connection is closed under it.
    static let operationLimit = Duration.seconds(10)

    /// What `operation` returns or throws, or ``OperationTimedOut`` once `limit` has passed,
    /// leaving the operation behind.
    static func bounded<Result: Sendable>(
        by limit: Duration, _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let outcome = Outcome<Result>()
        let work = Task {
            do {
                outcome.settle(.success(try await operation()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let watchdog = Task {
            try await Task.sleep(for: limit)
            outcome.settle(.failure(OperationTimedOut(limit: limit)))
        }
        defer { watchdog.cancel() }
        return try await withTaskCancellationHandler {
            await outcome.value
        } onCancel: {
            work.cancel()
        }.get()
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func withTransaction<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        return try await withConnection { connection in
            try await Self.transaction(on: connection, logger: logger) { try await body(connection) }
        }
    }

    /// Runs `body` in a transaction however long it takes, as ``withConnectionStreaming(_:)`` does.
    func withTransactionStreaming<Result>(_ body: (PostgresConnection) async throws -> Result) async throws
        -> Result
    {
        try await withConnectionStreaming { connection in
            try await Self.transaction(on: connection, logger: logger) { try await body(connection) }
        }
    }

    /// Runs `body` in a transaction on `connection`: committed when it returns, rolled back when
    /// it throws, with its error.
    static func transaction<Result>(
        on connection: PostgresConnection, logger: Logger, _ body: () async throws -> Result
    ) async throws -> Result {
        try await connection.query("BEGIN", logger: logger)
        let result: Result
        do {
            result = try await body()
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
        try await connection.query("COMMIT", logger: logger)
        return result
    }

    /// Every row of `query`, each readable by column name.
    @discardableResult
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        let logger = self.logger
        return try await withConnection { connection in
            try await PostgresRows.all(query, on: connection, logger: logger)
        }
    }

    /// A new connection of its own, in our schema, for what must outlive an operation (a list's lease).
    func dedicated() async throws -> PostgresConnection {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(quotedSchema)"), logger: logger)
        } catch {
            try? await connection.close()
            throw error
        }
        return connection
    }

    /// Closes the connection.
    func close() async {
        let connection = state.withLock { state in
            defer { state.connection = nil }
            return state.connection
        }
        try? await connection?.close()
    }

    private func current() async throws -> PostgresConnection {
        if let connection = state.withLock({ $0.connection }), !connection.isClosed { return connection }
        let connection = try await dedicated()
        state.withLock { $0.connection = connection }
        return connection
    }

    private func drop(_ connection: PostgresConnection) async {
        state.withLock { state in
            if state.connection === connection { state.connection = nil }
        }
        try? await connection.close()
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Whether `error` says the connection itself is gone, not that a statement failed.
    static func isConnectionLost(_ error: any Error) -> Bool {
        if error is IOError || error is ChannelError || error is OperationTimedOut { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            return true
        default:
            // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now.
            return error.serverInfo?[.sqlState]?.hasPrefix("57P") == true
        }
    }
}

/// The first result an operation or its watchdog settles.
private final class Outcome<Value: Sendable>: Sendable {
    private let state = Mutex<
        (result: Result<Value, any Error>?, waiter: CheckedContinuation<Result<Value, any Error>, Never>?)
    >(
        (nil, nil))

    /// Settles the outcome, unless it is settled already.
    func settle(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Value, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// The result, once settled.
    var value: Result<Value, any Error> {
        get async {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Result<Value, any Error>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }
}

/// An operation that did not end within ``PostgresConnections/operationLimit``.
struct OperationTimedOut: Error, CustomStringConvertible {
    var limit: Duration

    var description: String {
        "no answer within \(limit.components.seconds) s; the server may be restarting or unreachable"
    }
}
