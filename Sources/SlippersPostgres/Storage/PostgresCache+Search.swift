import Foundation
import PostgresNIO
import Slippers
import SlippersStorage

extension PostgresCache {
    /// The cached items of a list or an item type that match `text`, most relevant first
    /// (`ts_rank` with no length normalisation, as the file's bm25 ranks without document lengths,
    /// ties by row); see
    /// `SQLiteCache.search(_:in:limit:)` for how the text is read.
    ///
    /// Each item's string values are a `tsvector` (Latin diacritics removed, the `simple` configuration)
    /// computed as the search reads the items of its list or type: a write costs nothing more, and a
    /// search reads every item of its scope (no index).
    ///
    /// - throws: A `PostgresCacheError`.
    public func search(_ text: String, in scope: SearchScope, limit: Int = 50) async throws -> [RawItem] {
        guard let query = Self.tsquery(SearchPattern(text)), limit > 0 else { return [] }
        return try await mappingErrors {
            try await client.withConnection { [self] connection in
                let rows: [PostgresRandomAccessRow]
                switch scope {
                case .list(let key):
                    rows = try await PostgresRows.all(
                        """
                        SELECT s.key, s.json FROM (
                            SELECT i.id, i.key, i.json, slippers_item_search_vector(i.json) AS search FROM items i
                            WHERE EXISTS (
                                SELECT 1 FROM page_items pi JOIN pages p ON p.id = pi.page_id
                                WHERE pi.item_id = i.id
                                    AND p.collection_id = (SELECT id FROM collections WHERE key = \(key)))
                        ) s, to_tsquery('simple', slippers_unaccent(\(query))) q
                        WHERE s.search @@ q
                        ORDER BY ts_rank(s.search, q, 0) DESC, s.id LIMIT \(limit)
                        """, on: connection, logger: logger)
                case .itemType(let type):
                    rows = try await PostgresRows.all(
                        """
                        SELECT s.key, s.json FROM (
                            SELECT i.id, i.key, i.json, slippers_item_search_vector(i.json) AS search FROM items i
                            WHERE i.type = \(type)
                        ) s, to_tsquery('simple', slippers_unaccent(\(query))) q
                        WHERE s.search @@ q
                        ORDER BY ts_rank(s.search, q, 0) DESC, s.id LIMIT \(limit)
                        """, on: connection, logger: logger)
                }
                return try rows.map(PostgresRows.item)
            }
        }
    }

    /// The `tsquery` text of a pattern: each term's words (letters and digits) in a row (`<->`),
    /// the terms ANDed, the last word of the last term a prefix (`:*`) when it is one; `nil` when
    /// no term has a word. Only letters and digits reach the quoted lexemes, so no text a person
    /// types is read as `tsquery` syntax.
    static func tsquery(_ pattern: SearchPattern) -> String? {
        var terms: [String] = []
        for (index, term) in pattern.terms.enumerated() {
            let words = term.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
            guard !words.isEmpty else { continue }
            var lexemes = words.map { "'\($0)'" }
            if index == pattern.terms.count - 1, pattern.lastTermIsPrefix { lexemes[lexemes.count - 1] += ":*" }
            terms.append("(" + lexemes.joined(separator: " <-> ") + ")")
        }
        return terms.isEmpty ? nil : terms.joined(separator: " & ")
    }
}
