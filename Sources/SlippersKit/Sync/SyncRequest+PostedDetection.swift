import Foundation
import Slippers
import SlippersNetworking

extension SyncRequest.Style {
    /// How a list asked for by POST pages, as `slippers detect` shows it: for a GraphQL query, the
    /// query sent once and the connection (or list) its response holds; for a JSON body, its first
    /// page read as a GET list's is, then page 2 asked for under the body's page, offset or cursor.
    /// `nil` for a list asked for by GET.
    ///
    /// - returns: The detection, and whether page 2 brought items page 1 did not list (a GraphQL
    ///   connection's page 2 is not asked for: its cursor is the server's own).
    /// - throws: ``NetworkError`` when the first page cannot be fetched, or holds no connection or list.
    public func postedDetection(
        url: URL, client: APIClient, headers: [String: String]
    ) async throws -> (detection: PaginationStyle.Detection, advanced: Bool)? {
        guard var style = postedStyle() else { return nil }
        if let totalPath { style.totalKeyPath = totalPath }
        let source = HTTPPageSource(client: client, url: url, style: style, headers: headers)
        switch style.kind {
        case .graphQL(let connection) where connection.paging != .cursor:
            return (try await listByVariables(source, url: url), false)
        case .graphQL:
            return (try await relayConnection(source, url: url), false)
        default:
            return try await bodyDetection(source)
        }
    }

    /// A GraphQL list paged by variables: the array of objects its first response holds.
    private func listByVariables(_ source: HTTPPageSource, url: URL) async throws -> PaginationStyle.Detection {
        guard let (found, first) = try await source.detectingConnection() else {
            throw Self.noList(
                url: url,
                reason: "no list (an array of objects) in the response; check the query's "
                    + "selection, or give the list's path")
        }
        var reasons = ["a list at \(found.style.itemsKeyPath), paged by variables of the query"]
        if let total = first.total { reasons.append("the total at \(found.style.totalKeyPath ?? ""): \(total)") }
        return PaginationStyle.Detection(
            style: found.style, confidence: .high, reasons: reasons, itemCount: first.items.count)
    }

    /// A GraphQL Relay connection: the one ``connection`` names, else the first the response holds.
    private func relayConnection(_ source: HTTPPageSource, url: URL) async throws -> PaginationStyle.Detection {
        let found = try await source.graphQLConnections()
        let chosen = found.first { $0.connectionPath == connection } ?? found.first
        guard let chosen, connection == nil || chosen.connectionPath == connection,
            let style = postedStyle(connectionPath: chosen.connectionPath, items: chosen.items)
        else {
            throw Self.noList(
                url: url,
                reason: "no Relay connection (an object with edges or nodes and pageInfo) "
                    + "in the response; ask for pageInfo { hasNextPage endCursor }, or give the connection's path")
        }
        var reasons = ["a Relay connection at data.\(chosen.connectionPath): \(chosen.items.rawValue) and pageInfo"]
        if !chosen.hasPageInfo { reasons.append("pageInfo lacks hasNextPage or endCursor: ask for both") }
        for other in found where other != chosen {
            reasons.append("another connection at data.\(other.connectionPath) (--connection to page it)")
        }
        return PaginationStyle.Detection(
            style: style, confidence: chosen.hasPageInfo ? .high : .medium, reasons: reasons,
            itemCount: chosen.itemCount)
    }

    /// A JSON body: a page number or an offset in it read with its first response, or a cursor;
    /// then page 2 asked for.
    private func bodyDetection(
        _ given: HTTPPageSource
    ) async throws -> (detection: PaginationStyle.Detection, advanced: Bool) {
        var source = given
        var detection: PaginationStyle.Detection
        let first: Page<RawItem>?
        if let numbered = try await given.detectingNumberedBody() {
            (source, first, detection) = (numbered.source, numbered.firstPage, numbered.detection)
        } else {
            first = try await given.fetch(.first).page
            detection = PaginationStyle.Detection(
                style: given.style, confidence: .high, reasons: ["a cursor at \(given.style.kind.description)"],
                itemCount: first?.items.count)
        }
        guard let first, let next = first.nextToken else {
            detection.reasons.append("the first page is the last")
            return (detection, false)
        }
        let second = try await source.fetch(PageRequest(token: next)).page
        let firstKeys = Set(first.items.map(\.key))
        let advanced = second?.items.contains { !firstKeys.contains($0.key) } ?? false
        detection.tried = [advanced ? "page 2 brought new items" : "page 2 brought no new items"]
        detection.reasons.append("asked for page 2: " + detection.tried[0])
        return (detection, advanced)
    }

    private static func noList(url: URL, reason: String) -> NetworkError {
        NetworkError(.decoding(path: "data", reason: reason, bodySnippet: ""), url: url, method: "POST")
    }
}
