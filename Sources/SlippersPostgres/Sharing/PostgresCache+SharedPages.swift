import Foundation
import Logging
import NIOCore
import PostgresNIO
import Slippers

/// What the lease holder finds when it asks for a page of a shared list.
enum SharedPageClaim {
    /// The page is the lease holder's to fetch.
    case mine
    /// Another worker fetched the page; it is the lease holder's now.
    case staged(Page<RawItem>)
    /// Another worker, alive, is fetching the page.
    case busy
}

/// How far a list is committed, as a worker fetching ahead of the lease holder needs to know.
struct SharedListHead {
    /// The pages of the current generation, committed.
    var committedPages: Int
    /// The number of items of the whole list, when its server said.
    var total: Int?
    /// The number of items on the first page.
    var firstPageItemCount: Int?
    /// Whether the list's last page is committed.
    var endReached: Bool
}

extension PostgresCache {
    /// A claim is free once its worker's session is gone, or after this long whatever happens to it.
    static var sharedClaimLimit: String { "60 seconds" }
    /// Pages staged this long ago are not used: a later sync fetches them again.
    static var stagedPageLimit: String { "10 minutes" }

    /// Takes pages of the list for the lease holder: the first of `tokens` (the page it asks for)
    /// and, so that it need not ask again for each, those after it that no other worker has.
    ///
    /// A page the lease holder took before (a walk that went back), a claim of its own session,
    /// one whose session is gone or one older than ``sharedClaimLimit`` is taken over. The claims
    /// are made on the session holding the list's lease when this process holds it (so a claim
    /// lives exactly as long as the lease, and never waits behind the saves), else on the
    /// cache's connection.
    ///
    /// - returns: What became of the first page (the lease holder's to fetch, staged by another
    ///   worker, or being fetched by a live one), and the tokens of the others now the lease holder's.
    func claimForLeaseHolder(_ list: SharedList, tokens: [PageToken]) async throws
        -> (first: SharedPageClaim, alsoMine: Set<PageToken>)
    {
        let logger = self.logger
        let key = sharingKey(of: list)
        return try await mappingErrors {
            guard let connection = leaseConnections.withLock({ $0[list.list] }) else {
                return try await client.withConnection { connection in
                    try await Self.claimForLeaseHolder(key, tokens: tokens, on: connection, logger: logger)
                }
            }
            return try await PostgresConnections.bounded(by: PostgresConnections.operationLimit) {
                try await Self.claimForLeaseHolder(key, tokens: tokens, on: connection, logger: logger)
            }
        }
    }

    private static func claimForLeaseHolder(
        _ key: String, tokens: [PageToken], on connection: PostgresConnection, logger: Logger
    ) async throws -> (first: SharedPageClaim, alsoMine: Set<PageToken>) {
        guard let first = tokens.first?.rawValue else { return (.mine, []) }
        let limit = sharedClaimLimit
        let raw = tokens.map(\.rawValue)
        var mine: Set<String> = []
        for row in try await PostgresRows.all(
            """
            INSERT INTO shared_pages AS s (collection_key, token, state, claimed_by)
            SELECT \(key), t.token, 'taken', pg_backend_pid()
            FROM unnest(\(raw)::text[]) WITH ORDINALITY AS t(token, n) ORDER BY t.n
            ON CONFLICT (collection_key, token) DO UPDATE
                SET state = 'taken', claimed_by = pg_backend_pid(), claimed_at = now(), page = NULL
                WHERE s.state <> 'staged' AND (
                    s.state = 'taken' OR s.claimed_by = pg_backend_pid()
                    OR s.claimed_at < now() - \(limit)::interval
                    OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = s.claimed_by))
            RETURNING s.token
            """, on: connection, logger: logger)
        {
            mine.insert(try row["token"].decode(String.self))
        }
        let alsoMine = Set(mine.subtracting([first]).map(PageToken.init(rawValue:)))
        if mine.contains(first) { return (.mine, alsoMine) }
        let staged = try await PostgresRows.first(
            """
            UPDATE shared_pages s SET state = 'taken', claimed_by = pg_backend_pid(), page = NULL
            FROM shared_pages old
            WHERE s.collection_key = \(key) AND s.token = \(first) AND s.state = 'staged'
                AND old.collection_key = s.collection_key AND old.token = s.token
            RETURNING old.page AS page
            """, on: connection, logger: logger)
        guard let staged, let bytes = try staged["page"].decode(ByteBuffer?.self) else { return (.busy, alsoMine) }
        return (.staged(try StagedPage.decoded(Data(bytes.readableBytesView))), alsoMine)
    }

    /// Claims the first of `pages` that no worker has claimed and the list has not committed, for
    /// a worker fetching ahead of the lease holder; none while no lease holder walks the list
    /// with the same fingerprint.
    ///
    /// A page committed since the worker read how far the list stands is not claimed: the check
    /// and the claim are one statement, which sees the page committed or the lease holder's claim.
    ///
    /// - parameter pages: Each page's index and token, in the order to claim them.
    /// - returns: The token claimed, or `nil` when every one of them is claimed or committed already.
    func claimAhead(_ list: SharedList, pages: [(index: Int, token: PageToken)]) async throws -> PageToken? {
        let (key, list) = (sharingKey(of: list), list.list)
        let tokens = pages.map(\.token.rawValue)
        let indexes = pages.map { Int64($0.index) }
        return try await mappingErrors {
            try await client.withConnection { [logger] connection in
                let row = try await PostgresRows.first(
                    """
                    INSERT INTO shared_pages (collection_key, token, state, claimed_by)
                    SELECT \(key), t.token, 'claimed', pg_backend_pid()
                    FROM unnest(\(tokens)::text[], \(indexes)::bigint[]) WITH ORDINALITY AS t(token, idx, n)
                    WHERE NOT EXISTS (
                        SELECT 1 FROM shared_pages s WHERE s.collection_key = \(key) AND s.token = t.token)
                    AND NOT EXISTS (
                        SELECT 1 FROM pages p JOIN collections c ON c.id = p.collection_id
                        WHERE c.key = \(list) AND p.generation = c.generation AND p.idx = t.idx)
                    AND EXISTS (
                        SELECT 1 FROM shared_pages m WHERE m.collection_key = \(key) AND m.token = \(Self.walkMarker))
                    ORDER BY t.n LIMIT 1
                    ON CONFLICT DO NOTHING
                    RETURNING token
                    """, on: connection, logger: logger)
                return try row.map { PageToken(rawValue: try $0["token"].decode(String.self)) }
            }
        }
    }

    /// Stages a page this worker claimed and fetched; `false` when the claim was lost meanwhile
    /// (the lease holder took it over), and the page is dropped.
    func stage(_ page: Page<RawItem>, of list: SharedList, token: PageToken) async throws -> Bool {
        let key = sharingKey(of: list)
        let bytes = ByteBuffer(bytes: try StagedPage.encoded(page))
        return try await mappingErrors {
            try await client.withConnection { [logger] connection in
                try await PostgresRows.first(
                    """
                    UPDATE shared_pages SET state = 'staged', page = \(bytes)
                    WHERE collection_key = \(key) AND token = \(token.rawValue) AND state = 'claimed'
                        AND claimed_by = pg_backend_pid()
                    RETURNING 1 AS staged
                    """, on: connection, logger: logger) != nil
            }
        }
    }

    /// Gives up this session's claim on a page it could not fetch, for the lease holder to fetch.
    func releaseClaim(_ list: SharedList, token: PageToken) async throws {
        let key = sharingKey(of: list)
        try await mappingErrors {
            try await client.rows(
                """
                DELETE FROM shared_pages
                WHERE collection_key = \(key) AND token = \(token.rawValue) AND state = 'claimed'
                    AND claimed_by = pg_backend_pid()
                """)
        }
    }

    /// Clears what the list's earlier walks left: everything when `everything` (a refresh), else
    /// the pages taken or staged longer than ``stagedPageLimit`` ago.
    func clearSharedPages(_ list: SharedList, everything: Bool) async throws {
        let key = sharingKey(of: list)
        let limit = Self.stagedPageLimit
        try await mappingErrors {
            try await client.rows(
                """
                DELETE FROM shared_pages
                WHERE collection_key = \(key)
                    AND (\(everything) OR (state <> 'claimed' AND claimed_at < now() - \(limit)::interval))
                """)
        }
    }

    /// Clears the list's pages once its lease holder is done: the pages it took, its claims and
    /// dead workers' ones, and the staged pages once the list's end is committed. Staged pages of
    /// a list stopped before its end (`--max-pages`) stay for the next lease holder; live
    /// workers' claims stay for their workers.
    func clearSharedPagesAfterWalk(_ list: SharedList) async throws {
        let (key, list) = (sharingKey(of: list), list.list)
        try await mappingErrors {
            try await client.rows(
                """
                DELETE FROM shared_pages s
                WHERE s.collection_key = \(key) AND (
                    s.state = 'taken'
                    OR (s.state = 'claimed' AND (s.claimed_by = pg_backend_pid()
                        OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = s.claimed_by)))
                    OR (s.state = 'staged'
                        AND EXISTS (SELECT 1 FROM collections c WHERE c.key = \(list) AND c.end_reached)))
                """)
        }
    }

    /// How far the list is committed, or `nil` when it has no page yet.
    func sharedListHead(_ key: String) async throws -> SharedListHead? {
        try await mappingErrors {
            try await client.withConnection { [logger] connection in
                let row = try await PostgresRows.first(
                    """
                    SELECT c.end_reached, c.total,
                        (SELECT count(*) FROM pages p
                            WHERE p.collection_id = c.id AND p.generation = c.generation) AS committed,
                        (SELECT p.item_count FROM pages p
                            WHERE p.collection_id = c.id AND p.generation = c.generation AND p.idx = 0) AS first_items
                    FROM collections c WHERE c.key = \(key) AND c.generation > 0
                    """, on: connection, logger: logger)
                guard let row else { return nil }
                return SharedListHead(
                    committedPages: try row["committed"].decode(Int.self),
                    total: try row["total"].decode(Int?.self),
                    firstPageItemCount: try row["first_items"].decode(Int?.self),
                    endReached: try row["end_reached"].decode(Bool.self))
            }
        }
    }
}

extension PostgresCache {
    /// Runs the lease holder's walk of a list whose pages other workers fetch ahead.
    ///
    /// Before `body`, the pages staged for the list's earlier walks are cleared: all of them for
    /// a refresh, else those staged more than ten minutes ago; then the walk is marked, so that
    /// workers waiting with the same fingerprint fetch pages ahead for it. After it, whatever
    /// `body` did, the mark and the pages it took are cleared, and the staged ones too once the
    /// list's end is committed; a walk stopped before the end (`--max-pages`) leaves the pages
    /// staged for it to the next.
    ///
    /// - parameter list: The list and how its pages are asked for.
    /// - parameter refresh: Whether the walk starts again at the first page.
    public func walkingSharedList<Result: Sendable>(
        _ list: SharedList, refresh: Bool, _ body: () async throws -> Result
    ) async throws -> Result {
        try await clearSharedPages(list, everything: refresh)
        let key = sharingKey(of: list)
        try await mappingErrors {
            try await client.rows(
                """
                INSERT INTO shared_pages (collection_key, token, state, claimed_by)
                VALUES (\(key), \(Self.walkMarker), 'taken', pg_backend_pid())
                ON CONFLICT (collection_key, token) DO UPDATE SET claimed_by = pg_backend_pid(), claimed_at = now()
                """)
        }
        do {
            let result = try await body()
            try await clearSharedPagesAfterWalk(list)
            return result
        } catch {
            try? await clearSharedPagesAfterWalk(list)
            throw error
        }
    }

    /// The token of the row that marks a walk under way: no page's token is empty.
    static var walkMarker: String { "" }
}
