import Foundation

/// Why a ``SyncRequest`` is not one a sync can run: the member that is wrong, as a Swift key path
/// from the request (`style.postBody`), and why, in a few words.
///
/// The command line says the same with its flag's name (`--post-body`) instead of the member's.
public struct SyncRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The member that is wrong, as `style.postBody` or `limits.maxPages`.
    public var member: String
    /// What is wrong with it, and what goes with it instead.
    public var reason: String

    /// An error about `member`.
    public init(member: String, reason: String) {
        self.member = member
        self.reason = reason
    }

    /// One line: the member, then the reason.
    public var description: String { "\(member): \(reason)" }
}

extension SyncRequest {
    /// Checks the request's members against each other; a request that passes is one a sync runs
    /// as it says, with nothing silently dropped.
    ///
    /// `Syncer.run` calls it before any request; `PostgresCache.enqueue` calls it with `queued`,
    /// which also refuses a URL with a credential in its query: a queue stores nothing secret.
    ///
    /// - throws: ``SyncRequestError`` naming the first member that is wrong.
    public func validate(queued: Bool = false) throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", parsed.host?.isEmpty == false
        else { throw SyncRequestError(member: "url", reason: "\"\(url)\" is not an absolute http or https URL") }
        if queued, CredentialQuery.masking(url) != url {
            throw SyncRequestError(
                member: "url",
                reason: "\(CredentialQuery.masking(url)) carries a credential in its query, and a queue stores "
                    + "nothing secret: give the credential to the workers as a header")
        }
        try style.validate()
        for (member, value) in [
            ("limits.maxPages", limits.maxPages), ("limits.maxItems", limits.maxItems),
            ("limits.stallLimit", limits.stallLimit), ("network.concurrency", network.concurrency),
        ] {
            if let value, value < 1 { throw SyncRequestError(member: member, reason: "must be 1 or more") }
        }
        if refresh, revalidate {
            throw SyncRequestError(
                member: "revalidate", reason: "goes with no refresh: a revalidation rewrites only what changed")
        }
    }
}

extension SyncRequest.Style {
    /// Checks the style's members against each other.
    ///
    /// - throws: ``SyncRequestError`` naming the first member that is wrong (`style.postBody`…).
    func validate() throws {
        func wrong(_ member: String, _ reason: String) -> SyncRequestError {
            SyncRequestError(member: "style." + member, reason: reason)
        }
        if graphQL != nil, postBody != nil {
            throw wrong("postBody", "goes with no graphQL: a list is asked for by a query or by a body, not both")
        }
        if let pageSize, pageSize < 1 { throw wrong("pageSize", "must be 1 or more") }
        if graphQL == nil {
            for (member, value) in [
                ("connection", connection), ("variables", variables), ("operationName", operationName),
                ("offsetVariable", offsetVariable), ("pageVariable", pageVariable), ("sizeVariable", sizeVariable),
            ] where value != nil {
                throw wrong(member, "goes with graphQL")
            }
        } else {
            if name != nil { throw wrong("name", "goes with no graphQL, which gives the style") }
            if pageParameter != nil || cursorParameter != nil {
                throw wrong(pageParameter != nil ? "pageParameter" : "cursorParameter", "goes with no graphQL")
            }
            if cursorPath != nil { throw wrong("cursorPath", "goes with no graphQL: the cursor is pageInfo.endCursor") }
        }
        if offsetVariable != nil, pageVariable != nil {
            throw wrong("pageVariable", "goes with no offsetVariable: they are two ways of paging")
        }
        if postBody == nil {
            for (member, value) in [("nextCursorFromItem", nextCursorFromItem), ("pageSizePath", pageSizePath)]
            where value != nil {
                throw wrong(member, "goes with postBody")
            }
        } else {
            if cursorParameter != nil { throw wrong("cursorParameter", "goes with no postBody: use cursorPath") }
            if cursorPath != nil, pageParameter != nil {
                throw wrong("pageParameter", "goes with no cursorPath: they are two ways of paging a body")
            }
            if let name, name != "pageNumber", name != "offset" {
                throw wrong("name", "a body pages by a cursor (cursorPath), a page number or an offset")
            }
        }
        if nextCursorPath != nil, nextCursorFromItem != nil {
            throw wrong("nextCursorFromItem", "goes with no nextCursorPath: they say where the same cursor is")
        }
        for (member, text) in [("variables", variables), ("postBody", postBody)] {
            guard let text else { continue }
            guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any] else {
                throw wrong(member, "must be the text of a JSON object")
            }
        }
    }
}
