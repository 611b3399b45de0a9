import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the cache's outbox to the server: each pending write once, in order per item, until
/// the outbox is empty or the network fails.
///
/// A write is sent with its method, URL and JSON body, its `Idempotency-Key` (the same on every
/// attempt, so a write killed between send and acknowledgement and sent again is not applied
/// twice by a server that honours it) and, when its base version is known, `If-Match`. The
/// client's retries and backoff apply to each request; its origin policy decides where the
/// headers go, as for a sync.
///
/// - A `2xx` acknowledges the write: the server's answer, when it is a JSON object, becomes the
///   item's copy. For an insert, the answer's ``idField`` is the id the item is filed under from
///   then on, and the item's later writes are sent to the URL of that id.
/// - A `412` or `409` is a conflict, settled by ``conflictRule``; an insert that conflicts fails.
/// - Another `4xx` leaves the write `failed` with the server's message: it waits for
///   `CacheStore.retryWrite(_:)` or `CacheStore.discardWrite(_:)`, and the item's later writes wait behind it.
/// - A transport failure or a `5xx` that outlasts the retries stops the push; the write stays
///   pending for the next one.
///
/// For example:
///
/// ```swift
/// let report = try await OutboxPush(store: cache, client: client, headers: ["Authorization": "Bearer …"]).run()
/// print(report.acknowledged, report.failed, report.remaining)
/// ```
public struct OutboxPush: Sendable {
    /// What a conflict (`412 Precondition Failed`, `409 Conflict`) does to the write.
    public enum ConflictRule: Sendable {
        /// The server's copy wins: the item's writes are dropped and its copy is fetched again
        /// (a `GET` of the write's URL). The default.
        case serverWins
        /// The local change wins: the write is sent again without `If-Match`.
        case clientWins
        /// The change is merged: the closure gets the item as it was when the change was made
        /// (its server copy), the item as it is locally, and the server's current copy, and
        /// returns the item to send (a `PUT` of it, without `If-Match`).
        case merge(@Sendable (_ base: Data, _ local: Data, _ server: Data) -> Data)
    }

    /// What a push did.
    public struct Report: Sendable, Hashable {
        /// Writes the server acknowledged.
        public var acknowledged = 0
        /// Writes the server refused, now `failed`.
        public var failed = 0
        /// Conflicts settled by the rule.
        public var conflicts = 0
        /// Writes still in the outbox after the push, pending or failed.
        public var remaining = 0
        /// Why the push stopped early (the network), if it did.
        public var stoppedBy: String?
    }

    /// The cache whose outbox is sent.
    public var store: CacheStore
    /// The client that sends the writes, with its retries and origin policy.
    public var client: HTTPClient
    /// Headers for every write (credentials); never stored.
    public var headers: [String: String]
    /// What a conflict does; ``ConflictRule/serverWins`` unless set.
    public var conflictRule: ConflictRule = .serverWins
    /// The member of the server's answer to an insert that holds the id it gave the item; `"id"` unless set.
    public var idField = "id"

    /// Creates a push of `store`'s outbox through `client`.
    public init(store: CacheStore, client: HTTPClient, headers: [String: String] = [:]) {
        self.store = store
        self.client = client
        self.headers = headers
    }

    /// Sends every pending write, oldest first; writes of an item wait behind its failed ones.
    ///
    /// - returns: What the push did.
    /// - throws: A store error, or `CancellationError`. Network failures do not throw: they stop
    ///   the push and are in ``Report/stoppedBy``.
    public func run() async throws -> Report {
        var report = Report()
        var blocked: Set<String> = []
        var last: Int64?
        // A batch at a time: memory does not grow with the outbox.
        sending: while true {
            let batch = try store.pendingWrites(after: last, limit: Self.batchSize)
            guard let end = batch.last?.id else { break }
            last = end
            for write in batch {
                try Task.checkCancellation()
                let item = "\(write.itemType)\u{0}\(write.itemKey)"
                guard write.state == .pending, !blocked.contains(item) else {
                    blocked.insert(item)
                    continue
                }
                do {
                    try await send(write, report: &report)
                    if write.kind == .insert {
                        // The item's later writes now name the server's id: read them again.
                        last = write.id
                        continue sending
                    }
                } catch let error as NetworkError where Self.stopsThePush(error) {
                    report.stoppedBy = error.description
                    break sending
                } catch let error as NetworkError {
                    try store.failWrite(write.id, reason: error.description)
                    report.failed += 1
                    blocked.insert(item)
                }
            }
        }
        report.remaining = try store.pendingWriteCount()
        return report
    }

    /// How many writes are read from the outbox at a time.
    static let batchSize = 100

    private func send(_ write: PendingWrite, report: inout Report) async throws {
        try store.recordAttempt(ofWrite: write.id)
        do {
            let body = try await exchange(write, ifMatch: write.baseVersion)
            try store.acknowledgeWrite(
                write.id, serverJSON: body, serverKey: write.kind == .insert ? serverKey(in: body) : nil)
            report.acknowledged += 1
        } catch let error as NetworkError
            where write.kind != .insert && (error.status == 412 || error.status == 409)
        {
            report.conflicts += 1
            try await settle(write)
        } catch let error as NetworkError where write.kind == .delete && (error.status == 404 || error.status == 410) {
            // Already gone: what the delete asked for.
            try store.acknowledgeWrite(write.id)
            report.acknowledged += 1
        }
    }

    /// The id in the server's answer to an insert: ``idField``, a whole number or a string.
    private func serverKey(in body: Data?) -> ItemKey? {
        guard let body, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            return nil
        }
        guard let value = object[idField], let data = try? JSONSerialization.data(withJSONObject: [value]) else {
            return nil
        }
        return (try? JSONDecoder().decode([ItemKey].self, from: data))?.first
    }

    /// Whether a failure is the network's (the write stays pending and the push stops), not the write's.
    private static func stopsThePush(_ error: NetworkError) -> Bool {
        if error.isTransient { return true }
        if case .transport = error.kind { return true }
        return false
    }

    /// Settles a conflict by the rule.
    private func settle(_ write: PendingWrite) async throws {
        switch conflictRule {
        case .serverWins:
            let current = try await fetchServerCopy(of: write)
            try store.resolveWithServer(write.id, serverJSON: current)
        case .clientWins:
            let body = try await exchange(write, ifMatch: nil)
            try store.acknowledgeWrite(write.id, serverJSON: body)
        case .merge(let merge):
            let server = try await fetchServerCopy(of: write) ?? Data("{}".utf8)
            let base = try store.serverCopy(type: write.itemType, key: write.itemKey) ?? server
            let local = try store.item(type: write.itemType, key: write.itemKey)?.item.json ?? base
            var merged = write
            merged.method = "PUT"
            merged.body = merge(base, local, server)
            let body = try await exchange(merged, ifMatch: nil)
            try store.resolveWithServer(write.id, serverJSON: body ?? merged.body)
        }
    }

    /// Sends a write; the JSON object the server answered with, if any.
    private func exchange(_ write: PendingWrite, ifMatch: String?) async throws -> Data? {
        guard let url = URL(string: write.url) else {
            throw NetworkError(.invalidURL(write.url.shortenedForErrors))
        }
        var request = URLRequest(url: url)
        request.httpMethod = write.method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body = write.body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        request.setValue(write.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        if let ifMatch { request.setValue(ifMatch, forHTTPHeaderField: "If-Match") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await client.send(request, home: Origin(url)) { response in
            Self.jsonObject(response.body)
        }
    }

    /// The server's current copy of the write's item: a `GET` of its URL; `nil` when it answers none.
    private func fetchServerCopy(of write: PendingWrite) async throws -> Data? {
        guard let url = URL(string: write.url) else { return nil }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            return try await client.send(request, home: Origin(url)) { Self.jsonObject($0.body) }
        } catch let error as NetworkError where error.status == 404 || error.status == 410 {
            return nil
        }
    }

    /// The body when it is a JSON object, else `nil`.
    private static func jsonObject(_ body: Data) -> Data? {
        let trimmed = body.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        return trimmed.first == UInt8(ascii: "{") && (try? JSONSerialization.jsonObject(with: body)) != nil
            ? body : nil
    }
}
