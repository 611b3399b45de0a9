import Foundation
import PostgresNIO
import Slippers
import SlippersStorage

/// Reading the rows of our tables into the cache's values.
enum PostgresRows {
    /// Every row of a query, each readable by column name.
    static func all(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws
        -> [PostgresRandomAccessRow]
    {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await connection.query(query, logger: logger) {
            rows.append(row.makeRandomAccess())
        }
        return rows
    }

    /// The first row of a query, or `nil`.
    static func first(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws
        -> PostgresRandomAccessRow?
    {
        for try await row in try await connection.query(query, logger: logger) {
            return row.makeRandomAccess()
        }
        return nil
    }

    /// A list's row with its statistics; `WHERE` and `GROUP BY` follow.
    static let listInfoSQL = """
        SELECT c.id, c.key, c.item_type, c.style, c.resume_token, c.end_reached, c.total, c.created_at,
            c.refreshed_at, c.invalidated_at, c.generation,
            count(p.id) AS page_count,
            count(p.id) FILTER (WHERE p.generation < c.generation) AS superseded_page_count,
            count(p.id) FILTER (WHERE p.verified_at < c.unverified_before) AS unverified_page_count,
            (SELECT count(DISTINCT pi.item_id) FROM page_items pi WHERE pi.collection_id = c.id) AS item_count,
            max(p.fetched_at) AS last_fetched_at, max(p.idx) AS last_index
        FROM collections c LEFT JOIN pages p ON p.collection_id = c.id
        """

    /// A list of a row of ``listInfoSQL``.
    static func listInfo(_ row: PostgresRandomAccessRow) throws -> ListInfo {
        let pageCount = try row["page_count"].decode(Int.self)
        let supersededPageCount = try row["superseded_page_count"].decode(Int.self)
        let head = try listHead(row, currentPageCount: pageCount - supersededPageCount)
        return ListInfo(
            head: head, itemType: try row["item_type"].decode(String.self),
            style: try row["style"].decode(String?.self),
            createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
            pageCount: pageCount, supersededPageCount: supersededPageCount,
            itemCount: try row["item_count"].decode(Int.self),
            lastFetchedAt: try row["last_fetched_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
            unverifiedPageCount: try row["unverified_page_count"].decode(Int.self))
    }

    /// The head in a list's row that has a `last_index` column.
    static func listHead(_ row: PostgresRandomAccessRow, currentPageCount: Int) throws -> ListHead {
        ListHead(
            key: try row["key"].decode(String.self),
            resumeToken: try row["resume_token"].decode(String?.self).map(PageToken.init(rawValue:)),
            endReached: try row["end_reached"].decode(Bool.self),
            total: try row["total"].decode(Int?.self),
            refreshedAt: try row["refreshed_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
            invalidatedAt: try row["invalidated_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
            generation: try row["generation"].decode(Int.self),
            currentPageCount: currentPageCount,
            cachedPageCount: (try row["last_index"].decode(Int?.self)).map { $0 + 1 } ?? 0)
    }

    /// The columns of a page row that ``pageInfo(_:)`` reads.
    static let pageColumnsSQL = """
        p.id, p.idx, p.generation, p.token, p.next_token, p.etag, p.last_modified, p.fetched_at, p.item_count,
            p.verified_at, p.digest, p.lifetime, p.no_cache, p.stale_while_revalidate, p.stale_if_error, p.vary,
            p.vary_key, c.generation AS current_generation, c.unverified_before
        """

    /// A page of a row with ``pageColumnsSQL``.
    static func pageInfo(_ row: PostgresRandomAccessRow) throws -> PageInfo {
        let verifiedAt = try row["verified_at"].decode(Double?.self)
        let unverifiedBefore = try row["unverified_before"].decode(Double?.self)
        let generation = try row["generation"].decode(Int.self)
        return PageInfo(
            index: try row["idx"].decode(Int.self),
            generation: generation,
            token: try row["token"].decode(String?.self).map(PageToken.init(rawValue:)),
            nextToken: try row["next_token"].decode(String?.self).map(PageToken.init(rawValue:)),
            validators: PageValidators(
                etag: try row["etag"].decode(String?.self), lastModified: try row["last_modified"].decode(String?.self)),
            fetchedAt: Date(timeIntervalSince1970: try row["fetched_at"].decode(Double.self)),
            itemCount: try row["item_count"].decode(Int.self),
            isSuperseded: generation < (try row["current_generation"].decode(Int.self)),
            verifiedAt: verifiedAt.map(Date.init(timeIntervalSince1970:)),
            digest: try row["digest"].decode(String?.self),
            lifetime: try row["lifetime"].decode(Double?.self),
            requiresRevalidation: try row["no_cache"].decode(Bool.self),
            staleWhileRevalidate: try row["stale_while_revalidate"].decode(Double?.self),
            staleIfError: try row["stale_if_error"].decode(Double?.self),
            vary: (try row["vary"].decode(String?.self)).map { $0.split(separator: ",").map(String.init) } ?? [],
            varyKey: try row["vary_key"].decode(String?.self),
            isUnverified: unverifiedBefore.map { before in verifiedAt.map { $0 < before } ?? true } ?? false)
    }

    /// An item of a row with `key` and `json` columns.
    static func item(_ row: PostgresRandomAccessRow) throws -> RawItem {
        RawItem(
            key: ItemKey(postgresText: try row["key"].decode(String.self)),
            json: try row["json"].decode(Data.self))
    }
}
