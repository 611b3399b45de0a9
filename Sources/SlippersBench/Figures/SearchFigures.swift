import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage

/// Offline search: a search in 100 000 cached items against a `LIKE '%word%'` scan of the same
/// file, the index's size against the items', and what the index adds to persisting a page.
enum SearchFigures {
    /// The key of the searched list.
    private static let key = "GET /messages"

    static let search = FigureGroup(
        id: "search",
        summary:
            "ours: search 100 000 cached items (bm25, FTS5) against a LIKE '%word%' scan, and select from a view"
    ) { context in
        let count = context.sizes.searchItems
        let path = try context.makeDirectory("search").appendingPathComponent("cache.sqlite").path
        let store = try SQLiteCache(path: path)
        try store.setSearchableMembers([], of: "Message")
        try fill(store, items: 0..<count, progress: context.progress)
        context.progress.report("filled a store of \(count) searchable items")
        let queries = SearchText.queries
        let searched = try context.settings.measure { round in
            let found = try store.search(queries[round % queries.count], in: .list(key), limit: 20)
            precondition(!found.isEmpty, "a search of the bench found nothing")
        }
        // The scan a user without an index writes: every item's JSON, matched by LIKE (which finds
        // nothing in a BLOB: the JSON is read as text).
        let connection = try SQLiteConnection(path: path, synchronous: .normal)
        let like = try connection.prepare(
            "SELECT key, json FROM items WHERE type = 'Message' AND CAST(json AS TEXT) LIKE ?1")
        let scanned = try context.settings.measure { round in
            let word = queries[round % queries.count].split(separator: " ").first.map(String.init) ?? ""
            try like.bind("%\(word.trimmingCharacters(in: CharacterSet(charactersIn: "*\"")))%", at: 1)
            var rows = 0
            while try like.step() { rows += 1 }
            try like.reset()
            precondition(rows > 0, "the LIKE scan found nothing")
        }
        // The item type's view against the same members read with json_extract by hand.
        let viewed = try connection.prepare(#"SELECT title, body, author_name, read FROM "Message" LIMIT 10000"#)
        let byHand = try connection.prepare(
            """
            SELECT json_extract(json, '$.title'), json_extract(json, '$.body'), json_extract(json, '$.author.name'),
                json_extract(json, '$.read')
            FROM items WHERE type = 'Message' LIMIT 10000
            """)
        func readAll(_ statement: SQLiteStatement) throws {
            var rows = 0
            while try statement.step() {
                rows += statement.blob(at: 1).count > 0 ? 1 : 0
            }
            try statement.reset()
            precondition(rows > 0, "a select of the view found nothing")
        }
        let selects = try context.settings.measureInterleaved([
            { _ in try readAll(byHand) }, { _ in try readAll(viewed) },
        ])
        let sizes = try connection.prepare(
            """
            SELECT (SELECT sum(length(block)) FROM item_search_data)
                + (SELECT count(*) * 16 FROM item_search_idx),
                (SELECT sum(length(json)) FROM items)
            """)
        _ = try sizes.step()
        let indexBytes = sizes.integer(at: 0)
        let itemBytes = sizes.integer(at: 1)
        try sizes.reset()
        func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
        let size = count.formatted()
        return [
            Figure(milliseconds: "search \(size) cached items: median", measured: searched, target: .valueAtMost(5)),
            Figure(
                name: "search \(size) cached items: p99", unit: .milliseconds,
                value: searched.percentile(99).milliseconds, baseline: nil, baselineValue: nil,
                target: .valueAtMost(20)),
            Figure(
                name: "search \(size) cached items", measured: searched,
                against: ("a LIKE '%word%' scan of their JSON", scanned), target: .fasterBy(20)),
            Figure(
                name: "select 4 members of 10 000 items through their type's view", measured: selects[1],
                against: ("the same members with json_extract by hand", selects[0]), target: .ratioAtMost(1.5)),
            Figure(
                name: "full-text index of \(size) cached items", unit: .megabytes, value: megabytes(indexBytes),
                baseline: "the items' JSON", baselineValue: megabytes(itemBytes), target: .ratioAtMost(0.6)),
        ]
    }

    static let persist = FigureGroup(
        id: "search-persist",
        summary: "ours: persist a page of new items with the full-text index, against the same file without it"
    ) { context in
        let directory = try context.makeDirectory("search-persist")
        let indexed = try SQLiteCache(path: directory.appendingPathComponent("indexed.sqlite").path)
        try indexed.setSearchableMembers([], of: "Message")
        // The same schema, its item type never searched: items are written with no index.
        let plain = try SQLiteCache(path: directory.appendingPathComponent("plain.sqlite").path)
        let pageSize = context.workload.pageSize
        // Every round saves a page of items neither file holds yet: each is indexed, none skipped as unchanged.
        let pages = context.settings.roundIndexes.map { round in
            (round * pageSize..<(round + 1) * pageSize).map(SearchText.item)
        }
        let measured = try context.settings.measureInterleaved([
            { round in try save(pages[round], at: round, in: plain) },
            { round in try save(pages[round], at: round, in: indexed) },
        ])
        return [
            Figure(
                name: "persist a page of \(pageSize) new items with the full-text index", measured: measured[1],
                against: ("the same file without the index", measured[0]), target: .ratioAtMost(1.5))
        ]
    }

    /// Saves page `index` of the searched list.
    private static func save(_ items: [RawItem], at index: Int, in store: SQLiteCache) throws {
        try store.savePage(
            Page(
                items: items, token: index == 0 ? nil : PageToken(rawValue: String(index)),
                nextToken: PageToken(rawValue: String(index + 1))),
            at: index, in: ListDescriptor(key: key, itemType: "Message"))
    }

    /// Fills `store` with the items of `range`, a page of 50 at a time.
    private static func fill(_ store: SQLiteCache, items range: Range<Int>, progress: Progress) throws {
        for (index, start) in stride(from: range.lowerBound, to: range.upperBound, by: 50).enumerated() {
            try save((start..<min(start + 50, range.upperBound)).map(SearchText.item), at: index, in: store)
            if (index + 1) % 500 == 0 { progress.report("  saved \(index + 1) pages of searchable items") }
        }
    }
}

/// Messages with typical text: a title of 6 words and a body of 40, drawn from 4 000 words whose
/// frequencies fall off as in natural language (a few words everywhere, most words rare).
enum SearchText {
    /// What the bench searches for: single words, two words, a word being typed, a phrase.
    static let queries = [
        word(120), word(260), "\(word(40)) \(word(300))", String(word(700).prefix(5)) + "*", word(180),
        "\"\(word(1)) \(word(20))\"", word(500), "\(word(150)) \(word(75))",
    ]

    /// Message `index`, as its server sends it.
    static func item(_ index: Int) -> RawItem {
        var random = SplitMix(state: UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        let title = (0..<6).map { _ in word(zipf(&random)) }.joined(separator: " ")
        let body = (0..<40).map { _ in word(zipf(&random)) }.joined(separator: " ")
        let author = word(Int(random.next() % 300)).capitalized
        let json =
            #"{"id":\#(index + 1),"title":"\#(title)","body":"\#(body)","author":{"id":\#(index % 300),"name":"\#(author)"},"created_at":"2024-05-01T10:00:00Z","read":false}"#
        return RawItem(key: .integer(index + 1), json: Data(json.utf8))
    }

    /// Word `rank` of the vocabulary: two to four syllables, distinct for every rank below 4 096.
    static func word(_ rank: Int) -> String {
        let syllables = [
            "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qu", "be", "do", "fi", "gu", "ha",
        ]
        var rest = rank
        var text = syllables[rest % 16]
        rest /= 16
        repeat {
            text += syllables[rest % 16]
            rest /= 16
        } while rest > 0
        return text + (rank % 3 == 0 ? "n" : "")
    }

    /// A rank among 4 000, small ranks much more likely than large ones.
    private static func zipf(_ random: inout SplitMix) -> Int {
        let uniform = Double(random.next() % 1_000_000) / 1_000_000
        return Int(4_000 * uniform * uniform * uniform)
    }

    /// A small deterministic generator, so every run searches the same text.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
