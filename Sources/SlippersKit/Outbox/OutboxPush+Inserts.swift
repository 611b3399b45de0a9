import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Inserts: a `POST` is never sent again blindly.
extension OutboxPush {
    /// What looking for an insert on the server found.
    enum Lookup {
        /// The server's item that is the insert, as the server lists it.
        case found(Data)
        /// The pages looked at do not hold it.
        case notFound
        /// The server's list could not be read: why.
        case undecidable(String)
    }

    /// Sends an insert; one sent before without an answer is looked for on the server first.
    func sendInsert(_ write: PendingWrite, report: inout Report) async throws -> Outcome {
        if write.attempts > 0 {
            switch await lookUp(write) {
            case .found(let json):
                try acknowledgeInsert(write, json: json, location: nil, isListed: true)
                report.acknowledged += 1
                return .done
            case .undecidable(let why):
                return try markInDoubt(write, why: why, report: &report)
            case .notFound:
                break
            }
        }
        try cache.recordAttempt(ofWrite: write.id)
        do {
            let (body, location) = try await post(write)
            try acknowledgeInsert(write, json: body, location: location)
            report.acknowledged += 1
            return .done
        } catch let error as NetworkError where Self.leavesInsertInDoubt(error) {
            // The server may hold it: look before anything is sent again.
            switch await lookUp(write) {
            case .found(let json):
                try acknowledgeInsert(write, json: json, location: nil, isListed: true)
                report.acknowledged += 1
                return .done
            case .notFound:
                throw error
            case .undecidable(let why):
                return try markInDoubt(write, why: "\(error.description); \(why)", report: &report)
            }
        }
    }

    private func markInDoubt(_ write: PendingWrite, why: String, report: inout Report) throws -> Outcome {
        let reason =
            "the POST may have created it; \(why); check the list on the server, then "
            + "slippers outbox retry \(write.id) (send again) or drop \(write.id) (it is there)"
        try cache.markWriteInDoubt(write.id, reason: reason)
        report.inDoubt += 1
        report.problems.append(
            Report.Problem(writeID: write.id, item: Self.itemName(write), state: .inDoubt, reason: reason))
        return .held
    }

    /// Whether a failed `POST` may have reached the server: anything but a connection that never opened or a `4xx`.
    static func leavesInsertInDoubt(_ error: NetworkError) -> Bool {
        if case .transport(.cannotConnect) = error.kind { return false }
        if let status = error.status, status < 500 { return false }
        if case .originRefused = error.kind { return false }
        if case .invalidURL = error.kind { return false }
        return true
    }

    private func acknowledgeInsert(
        _ write: PendingWrite, json: Data?, location: String?, isListed: Bool = false
    ) throws {
        let key = serverKey(in: json) ?? location.flatMap(Self.key(fromLocation:))
        // An answer that is only an id (`{"id": 27}`) or a status is not the item: the item is what
        // was posted, with the server's members over it. An item found in the list is the item as
        // the list shows it: a write-only member posted is not added to it.
        var item = json
        if !isListed, let json, let postedBody = postedBody(of: write), !JSONMembers.contains(json, postedBody),
            var answer = JSONMembers.object(json), let posted = JSONMembers.object(postedBody)
        {
            for (name, value) in posted where answer[name] == nil { answer[name] = value }
            if let key, answer[idField] == nil {
                switch key {
                case .integer(let value): answer[idField] = value
                case .string(let value): answer[idField] = value
                }
            }
            item = try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])
        }
        // The item's later writes go where the server says it is.
        let itemURL = location.flatMap { URL(string: $0, relativeTo: URL(string: write.url)) }?.absoluteString
        try cache.acknowledgeWrite(write.id, serverJSON: item, serverKey: key, itemURL: itemURL)
    }

    /// The id at the end of a `Location` URL (`…/items/27` or `…/items/27/`).
    static func key(fromLocation location: String) -> ItemKey? {
        guard let last = URL(string: location)?.path.split(separator: "/").last.map(String.init), !last.isEmpty
        else { return nil }
        return Int(last).map(ItemKey.integer) ?? .string(last)
    }

    /// The body an insert posts: its JSON without the provisional id, unless the server takes client ids.
    func postedBody(of write: PendingWrite) -> Data? {
        guard !sendsClientIDs, var object = JSONMembers.object(write.body), object[idField] != nil else {
            return write.body
        }
        object[idField] = nil
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? write.body
    }

    /// Posts an insert, retried only while the connection cannot be opened (it never reached the server).
    private func post(_ write: PendingWrite) async throws -> (body: Data?, location: String?) {
        guard let url = URL(string: write.url) else { throw NetworkError(.invalidURL(write.url.shortenedForErrors)) }
        var request = URLRequest(url: url)
        request.httpMethod = write.method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = postedBody(of: write)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(write.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        var once = client
        once.retryPolicy = .none
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await once.send(request, home: Origin(url)) { response in
                    (Self.jsonObject(response.body), response.header("Location"))
                }
            } catch let error as NetworkError {
                guard case .transport(.cannotConnect) = error.kind,
                    let wait = client.retryPolicy.delay(afterAttempt: attempt, error: error)
                else { throw error }
                try await Task.sleep(for: wait)
            }
        }
    }

    /// Looks for an insert among the server's items: the first page of its list, and its last
    /// page when the first says where that is, for an item new to the cache that agrees with
    /// what was posted (``recognise(_:posted:among:)``).
    func lookUp(_ write: PendingWrite) async -> Lookup {
        guard let posted = postedBody(of: write), JSONMembers.isObject(posted), let url = URL(string: write.url)
        else { return .undecidable("its body is not a JSON object to look for") }
        do {
            // The list is read as it was synced: its stored style names its last page.
            let source: HTTPPageSource
            let first: Page<RawItem>
            let listed = try cache.lists(listing: write.itemType, key: write.itemKey)
            if let (key, text) = listed.first(where: { PaginationStyle(storedText: $0.style) != nil }),
                let style = PaginationStyle(storedText: text), !style.isPosted,
                let list = URL(string: ListKey(parsing: key).list)
            {
                source = HTTPPageSource(client: client, url: list, style: style, headers: headers)
                guard let page = try await source.fetch(.first).page else { return .notFound }
                first = page
            } else {
                let found = try await HTTPPageSource.detect(
                    client: client, url: url, headers: headers, pageTwo: .never)
                guard let page = found.firstPage else { return .notFound }
                (source, first) = (found.source, page)
            }
            var pages = [first]
            if first.nextToken != nil, let total = first.total, !first.items.isEmpty,
                let count = source.pageCount(forTotal: total, pageItemCount: first.items.count), count > 1,
                let token = source.token(forPageAt: count - 1),
                let last = try await source.fetch(PageRequest(token: token)).page,
                last.items.map(\.key) != first.items.map(\.key)
            {
                pages.append(last)
            }
            return try recognise(write, posted: posted, among: pages.flatMap(\.items))
        } catch {
            let reason = String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            return .undecidable("its list could not be read (\(reason))")
        }
    }

    /// Which of the listed `items` is the insert: among those whose ids the cache did not hold
    /// before the insert was made (any other was there before it), the one whose members agree
    /// with what was posted, a write-only reference and its nested read taken as one
    /// (``JSONMembers/agreement(posted:listed:isGenerated:)``), or that ``insertMatch`` accepts.
    ///
    /// Two such items, or new items that share nothing with the body but generated members,
    /// leave it undecidable: the write is never sent again on a guess.
    func recognise(_ write: PendingWrite, posted: Data, among items: [RawItem]) throws -> Lookup {
        var seen: Set<ItemKey> = []
        let listed = items.filter { seen.insert($0.key).inserted }
        let held = try cache.heldKeys(among: listed.map(\.key), beforeInsert: write.id)
        let new = listed.filter { !held.contains($0.key) }
        var matches: [RawItem] = []
        var blind: [RawItem] = []
        for item in new {
            if let insertMatch {
                if insertMatch(posted, item.json) { matches.append(item) }
                continue
            }
            switch JSONMembers.agreement(posted: posted, listed: item.json, isGenerated: isGenerated) {
            case .agree?: matches.append(item)
            case .nothingShared?: blind.append(item)
            case .differ?, nil: break
            }
        }
        if matches.count == 1, let item = matches.first { return .found(item.json) }
        if matches.count > 1 {
            return .undecidable(
                "\(matches.count) items new to the cache match what it posted (\(Self.keyList(matches)))")
        }
        if !blind.isEmpty {
            let sent = JSONMembers.object(posted).map { $0.keys.sorted().joined(separator: ", ") } ?? ""
            let (items, show) = blind.count == 1 ? ("new item", "shows") : ("new items", "show")
            return .undecidable(
                "the list's \(items) (\(Self.keyList(blind))) \(show) none of the members it posted (\(sent)) "
                    + "but ones a server makes, so nothing tells whether one is this insert")
        }
        return .notFound
    }

    /// Whether a posted member is one the server makes: not compared when looking for an insert.
    private func isGenerated(_ key: String) -> Bool {
        if sendsClientIDs, key == idField { return false }
        return JSONMembers.isGenerated(key, idField: idField)
    }

    /// The ids of some items, for a line: `id 26, 31`, the first five.
    private static func keyList(_ items: [RawItem]) -> String {
        let ids = items.prefix(5).map { $0.key.description.shortenedForErrors }.joined(separator: ", ")
        return (items.count == 1 ? "id " : "ids ") + ids + (items.count > 5 ? ", …" : "")
    }
}
