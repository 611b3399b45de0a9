import Foundation
import Logging
import PostgresNIO
import Slippers

extension PostgresCache {
    /// Whether a migration is the one after which the queued rows' arguments are made requests.
    static func convertsQueuedArguments(_ identifier: String) -> Bool {
        identifier.hasSuffix("_queue_requests")
    }

    /// Makes each queued row's `slippers sync` arguments a ``SyncRequest``, in the migrating
    /// transaction, oldest row first.
    ///
    /// A row whose arguments are not a request's keeps its URL alone as its request and ends
    /// failed with the reason; a row whose request is an older row's is that list queued twice,
    /// and goes.
    static func convertQueuedArguments(_ connection: PostgresConnection, logger: Logger) async throws {
        var rows: [(id: Int64, url: String, options: String)] = []
        let query = try await connection.query(
            "SELECT id, url, options FROM queue WHERE request IS NULL ORDER BY id", logger: logger)
        for try await row in query.decode((Int64, String, String).self) {
            rows.append((id: row.0, url: row.1, options: row.2))
        }
        var seen: Set<String> = []
        for row in rows {
            let arguments = (try? JSONDecoder().decode([String].self, from: Data(row.options.utf8))) ?? []
            var failure: String?
            let request: SyncRequest
            do {
                request = try SyncRequest(url: row.url, arguments: arguments)
            } catch {
                request = SyncRequest(url: row.url)
                failure = "\(error)"
            }
            let text = try request.encoded()
            guard seen.insert(text).inserted else {
                try await connection.query("DELETE FROM queue WHERE id = \(row.id)", logger: logger)
                continue
            }
            if let failure {
                try await connection.query(
                    """
                    UPDATE queue SET request = \(text), state = 'failed', lease_until = NULL, last_error = \(failure)
                    WHERE id = \(row.id)
                    """, logger: logger)
            } else {
                try await connection.query("UPDATE queue SET request = \(text) WHERE id = \(row.id)", logger: logger)
            }
        }
    }
}
