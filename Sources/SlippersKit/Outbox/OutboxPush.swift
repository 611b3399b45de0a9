import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the cache's outbox to the server: each pending write once, in order per item, until
/// the outbox is empty or the network fails, and never a write that would overwrite a change
/// the server made meanwhile or create an item twice.
///
/// Most servers ignore `Idempotency-Key` and `If-Match`, so a push does not rely on them:
///
/// - **No lost update.** Before a change (`PATCH`, `PUT`, `DELETE`) is sent, the item is read
///   (`GET`, with `If-None-Match` when its version is known) and compared with the copy the
///   change was made on: unchanged, the change is sent with `If-Match` (the version the read
///   gave); changed, it is a conflict settled by ``conflictRule``, as a `412` is; already
///   changed as the write would change it (an answer lost before), it is acknowledged. An
///   origin that answered `412` or `428` once enforces preconditions: its writes are sent with
///   `If-Match` alone from then on (recorded in the cache). What remains open is the moment
///   between the read and the write, which only a server's `If-Match` closes.
/// - **Versions.** `If-Match` is always an entity-tag (a version field's value is quoted); a
///   `428 Precondition Required` reads the item, compares it as above, and sends the write once
///   more with the version read.
/// - **No duplicate create.** A `POST` is retried by itself only when it provably never reached
///   the server (the connection was refused). One whose answer never arrived (a kill, a
///   timeout, a dropped connection, a `5xx`) is looked for on the server first: the first and
///   last pages of its list, among the items whose ids the cache did not hold before the
///   insert, for one whose members agree with those it posted that the item shows, a write-only
///   reference and its nested read taken as one (`author_id` or `authorId` posted, `author:
///   {"id", …}` listed), server-made members (ids, times, URLs) aside; or one ``insertMatch``
///   accepts. Found, the server's item is the acknowledgement; none new, or none agreeing, it is
///   sent again; when the list cannot be read, two items match, or the new items share nothing
///   with the body but server-made members, it waits ``PendingWrite/State/inDoubt`` with a
///   one-line reason, until it is retried (sent as a new item) or discarded. The provisional
///   id is not posted unless ``sendsClientIDs``.
///
/// Every write carries its `Idempotency-Key` (the same on every attempt) for servers that honour
/// it. The client's retries and backoff apply to the reads and to the changes (which are
/// idempotent); its origin policy decides where the headers go, as for a sync.
///
/// - A `2xx` acknowledges the write: the server's answer, when it is a JSON object, becomes the
///   item's copy. For an insert, the answer's ``idField`` (or the id at the end of its
///   `Location`) is the id the item is filed under from then on.
/// - A `412` or `409` is a conflict, settled by ``conflictRule``; an insert that conflicts fails.
/// - A `404` for a change fails it at once, saying how to give the item's URL; another `4xx`
///   leaves the write `failed` with the server's message: it waits for
///   `SQLiteCache.retryWrite(_:)` or `SQLiteCache.discardWrite(_:)`, and the item's later writes wait behind it.
/// - A transport failure or a `5xx` that outlasts the retries stops the push; the write stays
///   pending for the next one.
///
/// For example:
///
/// ```swift
/// let client = APIClient(configuration: ServerConfiguration(baseURL: URL(string: "https://api.example.com")!)!)
/// let report = try await OutboxPush(cache: cache, client: client, headers: ["Authorization": "Bearer …"]).run()
/// print(report.acknowledged, report.failed, report.inDoubt, report.remaining)
/// ```
public struct OutboxPush: Sendable {
    /// What a conflict (`412 Precondition Failed`, `409 Conflict`) does to the write.
    public enum ConflictRule: Sendable {
        /// The server's copy wins: the item's writes are dropped and its copy is fetched again
        /// (a `GET` of the write's URL). The default.
        case serverWins
        /// The local change wins: the write is sent again, with the server's current version as
        /// `If-Match` when it has one (so a server that demands one takes it).
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
        /// Inserts whose answer never arrived and that the server could not be checked for: now in doubt.
        public var inDoubt = 0
        /// Writes of the push's account still in the outbox after it, pending, failed or in doubt.
        public var remaining = 0
        /// Writes of other accounts, left in the outbox untouched: a push sends only its own
        /// account's writes, with its own credentials.
        public var otherAccounts = 0
        /// Why the push stopped early (the network), if it did.
        public var stoppedBy: String?
        /// The writes this push left failed or in doubt, each with its reason, in order.
        public var problems: [Problem] = []

        /// A write the push could not complete, and why.
        public struct Problem: Sendable, Hashable {
            /// The write's number in the outbox.
            public var writeID: Int64
            /// The item's type and id, as `posts 42`.
            public var item: String
            /// Whether it failed or is in doubt.
            public var state: PendingWrite.State
            /// Why, in one line: the server's reason, or what to check.
            public var reason: String
        }
    }

    /// The cache whose outbox is sent.
    public var cache: SQLiteCache
    /// The client that sends the writes, with its retries and origin policy.
    var client: APIClient
    /// Headers for every write (credentials); never stored.
    public var headers: [String: String]
    /// Whose writes are sent: `nil` unless set, and then the account the credentials of
    /// ``headers`` derive (anonymous without any). Writes made under another account stay
    /// pending (``Report/otherAccounts``); declare the account (the user's id) when the token rotates.
    public var account: Account?
    /// What a conflict does; ``ConflictRule/serverWins`` unless set.
    public var conflictRule: ConflictRule = .serverWins
    /// The member of the server's answer to an insert that holds the id it gave the item; `"id"` unless set.
    public var idField = "id"
    /// Whether the server takes the ids the app gives new items: the provisional id is posted.
    /// `false` unless set: the id member is left out of a `POST`'s body.
    public var sendsClientIDs = false
    /// How an insert whose answer never arrived is recognised among the server's items that are
    /// new to the cache: given what was posted and a candidate, whether it is the one. `nil` for
    /// the default: the members both show agree (a reference such as `author_id` and a nested
    /// `author: {"id"}` taken as one), and they share one at least that the server does not make.
    public var insertMatch: (@Sendable (_ posted: Data, _ candidate: Data) -> Bool)?

    /// Creates a push of `cache`'s outbox through `client`.
    public init(cache: SQLiteCache, client: APIClient, headers: [String: String] = [:]) {
        self.cache = cache
        self.client = client
        self.headers = headers
    }

    /// Sends every pending write of the push's ``account``, oldest first; writes of an item wait
    /// behind its failed ones, and other accounts' writes are left as they are.
    ///
    /// - returns: What the push did.
    /// - throws: A cache error, or `CancellationError`. Network failures do not throw: they stop
    ///   the push and are in ``Report/stoppedBy``.
    public func run() async throws -> Report {
        var report = Report()
        let account = cache.account(
            declared: account, credentialDigest: HTTPPageSource.credentialDigest(headers: headers, url: nil))
        var blocked: Set<String> = []
        var last: Int64?
        // A batch at a time: memory does not grow with the outbox.
        var reads: [Int64: Result<ServerState, any Error>] = [:]
        sending: while true {
            let read = try cache.pendingWrites(after: last, limit: Self.batchSize)
            guard let end = read.last?.id else { break }
            last = end
            // Another account's write goes out only with that account's credentials, by its own push:
            // it is neither read nor sent here.
            let batch = read.filter { $0.account == account }
            for (position, write) in batch.enumerated() {
                try Task.checkCancellation()
                let item = "\(write.itemType)\u{0}\(write.itemKey)"
                guard write.state == .pending, !blocked.contains(item) else {
                    blocked.insert(item)
                    continue
                }
                if reads[write.id] == nil, position % Self.readsAhead == 0 {
                    // The reads of the next few items go together, while the writes go one by one.
                    reads = try await readAhead(batch[position...].prefix(Self.readsAhead))
                }
                do {
                    let outcome = try await send(write, read: reads.removeValue(forKey: write.id), report: &report)
                    if outcome != .done {
                        blocked.insert(item)
                        continue
                    }
                    if write.kind == .insert {
                        // The item's later writes now name the server's id: read them, and their items, again.
                        last = write.id
                        reads = [:]
                        continue sending
                    }
                } catch let error as NetworkError where Self.stopsThePush(error) {
                    report.stoppedBy = error.description
                    break sending
                } catch let error as NetworkError {
                    try fail(write, reason: Self.reason(for: error, of: write), report: &report)
                    blocked.insert(item)
                }
            }
        }
        let counts = try cache.pendingWriteCounts()
        report.remaining = counts[account] ?? 0
        report.otherAccounts = counts.filter { $0.key != account }.values.reduce(0, +)
        report.recordMetrics()
        return report
    }

    /// How many writes are read from the outbox at a time.
    static let batchSize = 100
    /// How many items are read at once ahead of their changes.
    static let readsAhead = 8

    /// Reads at once the items of the changes among `writes` (the next few of the outbox, whose
    /// items' earlier writes are sent already) that are the first of their item among them and go
    /// to an origin that does not enforce preconditions; each read's outcome by write.
    private func readAhead(
        _ writes: ArraySlice<PendingWrite>
    ) async throws -> [Int64: Result<ServerState, any Error>] {
        var firsts: [PendingWrite] = []
        var items: Set<String> = []
        // An item whose insert is among them has no copy on the server to read yet.
        for write in writes where write.state == .pending {
            guard items.insert("\(write.itemType)\u{0}\(write.itemKey)").inserted, write.kind != .insert,
                !(try cache.enforcesPreconditions(Self.origin(of: write)))
            else { continue }
            firsts.append(write)
        }
        guard firsts.count > 1 else { return [:] }
        // One task a read, each answer kept with the write it was made for.
        let push = self
        let reads = firsts.map { write in
            Task { try await push.serverState(of: write, ifNoneMatch: write.baseVersion.map(EntityTag.quoted)) }
        }
        var results: [Int64: Result<ServerState, any Error>] = [:]
        for (write, read) in zip(firsts, reads) {
            results[write.id] = await withTaskCancellationHandler {
                await read.result
            } onCancel: {
                read.cancel()
            }
        }
        return results
    }

    /// What became of a write this push took up.
    enum Outcome: Equatable {
        /// Acknowledged, or settled: the item's later writes may go.
        case done
        /// Failed or in doubt: the item's later writes wait behind it.
        case held
    }

    private func send(
        _ write: PendingWrite, read: Result<ServerState, any Error>?, report: inout Report
    ) async throws -> Outcome {
        if write.kind == .insert { return try await sendInsert(write, report: &report) }
        return try await sendChange(write, read: read, report: &report)
    }

    /// Sends a change once the item's read (made ahead, or now) shows the server's copy is still its base.
    private func sendChange(
        _ write: PendingWrite, read: Result<ServerState, any Error>?, report: inout Report
    ) async throws -> Outcome {
        var ifMatch = write.baseVersion.map(EntityTag.quoted)
        if !(try cache.enforcesPreconditions(Self.origin(of: write))) {
            let state: ServerState
            if let read {
                state = try read.get()
            } else {
                state = try await serverState(of: write, ifNoneMatch: ifMatch)
            }
            guard case .unchanged(let version) = state else {
                return try await resolve(write, seeing: state, report: &report)
            }
            ifMatch = version ?? ifMatch
        }
        try cache.recordAttempt(ofWrite: write.id)
        do {
            let body = try await exchange(write, ifMatch: ifMatch)
            try cache.acknowledgeWrite(write.id, serverJSON: itemAnswer(body))
            report.acknowledged += 1
            return .done
        } catch let error as NetworkError where error.status == 412 || error.status == 409 {
            if error.status == 412 { try cache.noteEnforcesPreconditions(Self.origin(of: write)) }
            report.conflicts += 1
            return try await settle(write, server: nil, version: nil, report: &report)
        } catch let error as NetworkError where error.status == 428 {
            // The server demands a version: the item is read, compared with the base, and the write sent once with it.
            try cache.noteEnforcesPreconditions(Self.origin(of: write))
            let state = try await serverState(of: write, ifNoneMatch: nil)
            guard case .unchanged(let version) = state else {
                return try await resolve(write, seeing: state, report: &report)
            }
            let body = try await exchange(write, ifMatch: version)
            try cache.acknowledgeWrite(write.id, serverJSON: itemAnswer(body))
            report.acknowledged += 1
            return .done
        } catch let error as NetworkError where write.kind == .delete && (error.status == 404 || error.status == 410) {
            // Already gone: what the delete asked for.
            try cache.acknowledgeWrite(write.id)
            report.acknowledged += 1
            return .done
        }
    }

    /// What a read that shows the change must not be sent as it is does to the write: acknowledged
    /// (already applied, or a delete of an item gone), a conflict settled by the rule, or failed (a
    /// change whose item is not at its URL, never taken for a deletion).
    private func resolve(_ write: PendingWrite, seeing state: ServerState, report: inout Report) async throws
        -> Outcome
    {
        switch state {
        case .unchanged:
            preconditionFailure("a change whose item is unchanged is sent, not resolved")
        case .applied(let json):
            try cache.acknowledgeWrite(write.id, serverJSON: json)
            report.acknowledged += 1
            return .done
        case .changed(let json, let version):
            report.conflicts += 1
            return try await settle(write, server: json, version: version, report: &report)
        case .gone where write.kind == .delete:
            try cache.acknowledgeWrite(write.id)
            report.acknowledged += 1
            return .done
        case .gone:
            try fail(write, reason: Self.notFoundReason(of: write), report: &report)
            return .held
        }
    }

    /// Leaves a write failed with `reason`, and says so in the report.
    func fail(_ write: PendingWrite, reason: String, report: inout Report) throws {
        try cache.failWrite(write.id, reason: reason)
        report.failed += 1
        report.problems.append(
            Report.Problem(writeID: write.id, item: Self.itemName(write), state: .failed, reason: reason))
    }

    /// The item of a write as a person reads it: its type's short name and its id.
    static func itemName(_ write: PendingWrite) -> String {
        let type = write.itemType.split(separator: "@").first.map(String.init) ?? write.itemType
        return "\(type) \(write.itemKey)"
    }

    /// The origin a write goes to, as the cache records what it enforces.
    static func origin(of write: PendingWrite) -> String {
        URL(string: write.url).flatMap(Origin.init)?.description ?? write.url
    }

    /// The reason a write failed, in one line; a `404` for a change says how to give the item's URL.
    static func reason(for error: NetworkError, of write: PendingWrite) -> String {
        guard error.status == 404, write.kind == .merge || write.kind == .replace else { return error.description }
        return notFoundReason(of: write)
    }

    /// Why a change whose item's URL answers `404` failed, and how to give the URL.
    static func notFoundReason(of write: PendingWrite) -> String {
        "HTTP 404: no item at \(CredentialQuery.masking(write.url).shortenedForErrors); give where the items live "
            + "with slippers edit LIST ID --item-url 'https://…/{id}' (PagedList.itemURLTemplate in code), "
            + "then slippers outbox retry \(write.id)"
    }

    /// The server's answer to a change when it is the item (an object with the id member); `nil`
    /// for an answer such as `{"success": true}`, which leaves the change applied to the server's copy.
    func itemAnswer(_ body: Data?) -> Data? {
        JSONMembers.hasMember(idField, in: body) ? body : nil
    }

    /// The id in the server's answer to an insert: ``idField``, a whole number or a string.
    func serverKey(in body: Data?) -> ItemKey? {
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

    /// Settles a conflict by the rule, given the server's copy and version when a read brought them.
    private func settle(
        _ write: PendingWrite, server known: Data?, version: String?, report: inout Report
    ) async throws -> Outcome {
        switch conflictRule {
        case .serverWins:
            var current = known
            if current == nil { current = try await fetchServerCopy(of: write) }
            try cache.resolveWithServer(write.id, serverJSON: current)
            return .done
        case .clientWins:
            let body = try await exchange(write, ifMatch: version)
            try cache.acknowledgeWrite(write.id, serverJSON: itemAnswer(body))
            report.acknowledged += 1
            return .done
        case .merge(let merge):
            var fetched = known
            if fetched == nil { fetched = try await fetchServerCopy(of: write) }
            let server = fetched ?? Data("{}".utf8)
            let base = try cache.serverCopy(type: write.itemType, key: write.itemKey) ?? server
            let local = try cache.item(type: write.itemType, key: write.itemKey)?.item.json ?? base
            var merged = write
            merged.method = "PUT"
            merged.body = merge(base, local, server)
            let body = try await exchange(merged, ifMatch: version)
            try cache.resolveWithServer(write.id, serverJSON: itemAnswer(body) ?? merged.body)
            report.acknowledged += 1
            return .done
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
        if let ifMatch { request.setValue(EntityTag.quoted(ifMatch), forHTTPHeaderField: "If-Match") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await client.send(request, home: Origin(url)) { response in
            Self.jsonObject(response.body)
        }
    }

    /// What the server holds of a change's item, as its read shows.
    enum ServerState: Sendable {
        /// The copy the change was made on: send the change, with this version when the server gave one.
        case unchanged(version: String?)
        /// Already as the write would make it: a write whose answer was lost, acknowledged with this copy.
        case applied(Data)
        /// Changed by someone else: a conflict, with the server's copy and version.
        case changed(Data, version: String?)
        /// No such item (`404`, `410`).
        case gone
    }

    /// Reads the write's item (`If-None-Match` with its version, when known) and compares it with
    /// the copy the change was made on, member by member.
    func serverState(of write: PendingWrite, ifNoneMatch: String?) async throws -> ServerState {
        guard let url = URL(string: write.url) else {
            throw NetworkError(.invalidURL(write.url.shortenedForErrors))
        }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let ifNoneMatch { request.setValue(EntityTag.quoted(ifNoneMatch), forHTTPHeaderField: "If-None-Match") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let response: NetworkResponse
        do {
            response = try await client.send(request, home: Origin(url)) { $0 }
        } catch let error as NetworkError where error.status == 404 || error.status == 410 {
            return .gone
        }
        let version = response.header("ETag")
        if response.statusCode == 304 { return .unchanged(version: version ?? ifNoneMatch) }
        guard let baseJSON = try cache.serverCopy(type: write.itemType, key: write.itemKey),
            let agrees = JSONMembers.sharedMembersAgree(baseJSON, response.body)
        else { return .unchanged(version: version) }
        if agrees { return .unchanged(version: version) }
        if let base = JSONMembers.object(baseJSON), let expected = try expected(of: write, on: base),
            JSONMembers.sharedMembersAgree(expected, response.body) == true
        {
            return .applied(response.body)
        }
        return .changed(response.body, version: version)
    }

    /// The item as the write makes it from `base`: the patch applied, or the whole item sent.
    private func expected(of write: PendingWrite, on base: [String: Any]) throws -> Data? {
        guard let body = write.body, let patch = try? JSONSerialization.jsonObject(with: body) else { return nil }
        switch write.kind {
        case .merge:
            var result = base
            for (key, value) in patch as? [String: Any] ?? [:] { result[key] = value is NSNull ? nil : value }
            return try JSONSerialization.data(withJSONObject: result)
        case .replace: return body
        case .delete, .insert: return nil
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
    static func jsonObject(_ body: Data) -> Data? {
        JSONMembers.isObject(body) ? body : nil
    }
}
