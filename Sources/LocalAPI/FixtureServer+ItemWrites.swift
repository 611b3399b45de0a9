import Foundation

/// The answer to a write of one item, kept to replay it for a repeated `Idempotency-Key`.
struct ItemWriteAnswer: Sendable {
    var status: Int
    var etag: String?
    var body: Data
    /// Where a created item is, for a `201`: its path, without a trailing slash.
    var location: String?
}

extension FixtureServer {
    /// The number of item writes the server applied: a write sent again with the same
    /// `Idempotency-Key` is answered as before and not applied again.
    public var appliedWrites: Int { state.withLock { $0.appliedWrites } }

    /// The `ETag` of an item as the server now holds it, or `nil` when there is no such item.
    public func itemETag(id: Int) -> String? {
        state.withLock { state in
            state.catalog.position(of: id).map { _ in Self.itemETag(state.catalog.itemJSON(id: id)) }
        }
    }

    /// Answers `GET`, `PATCH`, `PUT` and `DELETE` of `/ROUTE/ID` (and `/ROUTE/ID/`), and a `POST`
    /// of a JSON object to `/ROUTE` (and `/ROUTE/`), as a REST framework routes items; `nil` for
    /// other requests (another body posted to a list is answered with the page, as before).
    func answerItemRequest(method: String, path: String, headers: [String: String], body: Data) -> ItemWriteAnswer? {
        let parts = path.split(separator: "/")
        if parts.count == 1, method == "POST", Route(rawValue: "/" + parts[0]) != nil,
            let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        {
            return create(object, in: String(parts[0]), headers: headers)
        }
        guard parts.count == 2, Route(rawValue: "/" + parts[0]) != nil, let id = Int(parts[1]) else { return nil }
        return state.withLock { state in
            let writes = state.configuration.writes
            guard state.catalog.position(of: id) != nil, writes.acceptsTrailingSlash || !path.hasSuffix("/") else {
                return ItemWriteAnswer(status: 404, etag: nil, body: Data(#"{"detail":"Not found."}"#.utf8))
            }
            let current = Self.itemETag(state.catalog.itemJSON(id: id))
            let etag = writes.sendsETags ? current : nil
            if method == "GET" {
                if writes.sendsETags, headers["If-None-Match"] == current {
                    return ItemWriteAnswer(status: 304, etag: etag, body: Data())
                }
                return ItemWriteAnswer(status: 200, etag: etag, body: Data(state.catalog.itemJSON(id: id).utf8))
            }
            let key = writes.honoursIdempotencyKey ? headers["Idempotency-Key"] : nil
            if let key, let answer = state.writeAnswers[key] { return answer }
            if writes.requiresIfMatch, headers["If-Match"] == nil {
                return ItemWriteAnswer(
                    status: 428, etag: nil, body: Data(#"{"message":"Precondition required: send If-Match."}"#.utf8))
            }
            if writes.honoursIfMatch || writes.requiresIfMatch, let ifMatch = headers["If-Match"], ifMatch != current {
                return ItemWriteAnswer(
                    status: 412, etag: etag, body: Data(#"{"detail":"Precondition failed: the item changed."}"#.utf8)
                )
            }
            let answer: ItemWriteAnswer
            switch method {
            case "PATCH", "PUT":
                let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
                guard let object else {
                    return ItemWriteAnswer(status: 400, etag: nil, body: Data(#"{"detail":"JSON parse error."}"#.utf8))
                }
                if let title = object["title"] {
                    guard let title = title as? String, title.count <= 200 else {
                        return ItemWriteAnswer(
                            status: 400, etag: nil,
                            body: Data(#"{"title":["Ensure this field has no more than 200 characters."]}"#.utf8))
                    }
                    _ = state.catalog.update(id: id, title: title)
                }
                let json = state.catalog.itemJSON(id: id)
                answer = ItemWriteAnswer(
                    status: 200, etag: writes.sendsETags ? Self.itemETag(json) : nil, body: Data(json.utf8))
            case "DELETE":
                _ = state.catalog.remove(id: id)
                answer = ItemWriteAnswer(status: 204, etag: nil, body: Data())
            default:
                return ItemWriteAnswer(status: 405, etag: nil, body: Data(#"{"detail":"Method not allowed."}"#.utf8))
            }
            state.appliedWrites += 1
            if let key { state.writeAnswers[key] = answer }
            return answer
        }
    }

    /// Creates an item from a `POST`: it goes to the top of the list with the next id, its title
    /// from the body (and its author, when the server takes one); `201` with the item and its
    /// `Location`. A repeated `Idempotency-Key` gets the first answer.
    private func create(_ object: [String: Any], in route: String, headers: [String: String]) -> ItemWriteAnswer {
        state.withLock { state in
            let writes = state.configuration.writes
            let key = writes.honoursIdempotencyKey ? headers["Idempotency-Key"] : nil
            if let key, let answer = state.writeAnswers[key] { return answer }
            let titleMember = writes.titleMember
            guard let title = object[titleMember] as? String, !title.isEmpty, title.count <= 200 else {
                return ItemWriteAnswer(
                    status: 400, etag: nil, body: Data(#"{"\#(titleMember)":["This field is required."]}"#.utf8))
            }
            var authorID: Int?
            if let reference = writes.authorReference {
                guard let id = object[reference] as? Int, (1...50).contains(id) else {
                    return ItemWriteAnswer(
                        status: 400, etag: nil,
                        body: Data(#"{"\#(reference)":["A valid author id is required."]}"#.utf8))
                }
                authorID = id
            }
            state.catalog.insertAtTop(count: 1)
            let id = state.catalog.id(at: 0)
            _ = state.catalog.update(id: id, title: title)
            if let authorID { state.catalog.setAuthor(id: id, authorID: authorID) }
            let json = state.catalog.itemJSON(id: id)
            let answer = ItemWriteAnswer(
                status: 201, etag: writes.sendsETags ? Self.itemETag(json) : nil, body: Data(json.utf8),
                location: "/\(route)/\(id)")
            state.appliedWrites += 1
            if let key { state.writeAnswers[key] = answer }
            return answer
        }
    }

    /// An item's `ETag`: FNV-1a of its JSON.
    static func itemETag(_ json: String) -> String {
        FixtureHandler.etag(of: Data(json.utf8))
    }
}

extension FixtureCatalog {
    /// The JSON of the item with `id`, as the list serves it.
    func itemJSON(id: Int) -> String {
        FixtureItem.json(id: id, title: titles[id], authorID: authors[id])
    }
}
