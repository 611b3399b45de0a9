import ArgumentParser
import Foundation
import LocalAPI
import Slippers
import SlippersNetworking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The child process of the network-speed baseline: a sync written by hand, as a user would write it.
///
/// Hidden from help. One page after another over a kept-alive `URLSession`:
/// fetch the page, decode it with `JSONDecoder`, insert its items into
/// SQLite (WAL, `synchronous = NORMAL`, the cache's durability) in one
/// transaction, then ask for the next page: by page number until a page is
/// short or the total is reached, by the cursor the body gives, or by the
/// next URL the body or the `Link` header gives. It prints one JSON object:
/// ``Outcome``.
struct SequentialClientProbe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sequential-client-probe",
        abstract: "Page an API into SQLite one page after another, as a hand-written client does; report the time.",
        shouldDisplay: false
    )

    /// What the probe measured.
    struct Outcome: Codable {
        /// From the first request to the last commit.
        var wallMicroseconds: Double
        /// The mean time from a page's arrival to the request of the next: the client's own share of each page's time.
        var requestGapMicroseconds: Double = 0
        /// Items and pages fetched.
        var items: Int
        var pages: Int
    }

    /// The ways the baseline asks for the next page.
    enum Paging: String, ExpressibleByArgument, CaseIterable {
        /// `page` and `per_page` parameters, until a short page or the total.
        case page
        /// The body's `next_cursor`, sent as `cursor`.
        case cursor
        /// The body's `next` URL, as Django REST framework gives it, until it is `null`.
        case next
        /// A bare array and the `Link` header's `rel="next"`, as GitHub gives it, until there is none.
        case link
    }

    /// A page of the fixture API, as a client decodes it.
    private struct Body: Decodable {
        var results: [FixtureItem]
        var total: Int?
        var nextCursor: String?
        var next: String?
    }

    @Option(help: "The route of the API, e.g. http://127.0.0.1:PORT/page or /cursor.")
    var url: String

    @Option(help: "How the next page is asked for.")
    var paging: Paging = .page

    @Option(help: "Items per page to ask for.")
    var pageSize: Int = 50

    @Option(help: "The database file to create.")
    var path: String

    func run() throws {
        guard let url = URL(string: url) else { throw ValidationError("--url must be an http URL") }
        let (paging, pageSize, path) = (paging, pageSize, path)
        let outcome = try Blocking.run {
            try await Self.sync(url: url, paging: paging, pageSize: pageSize, path: path)
        }
        print(String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self))
    }

    private static func sync(url: URL, paging: Paging, pageSize: Int, path: String) async throws -> Outcome {
        let database = try SQLiteConnection(path: path, synchronous: .normal)
        try database.execute("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, json BLOB NOT NULL)")
        let insert = try database.prepare("INSERT OR REPLACE INTO items (id, json) VALUES (?, ?)")
        let session = URLSession(configuration: .default)
        // A JSONDecoder and a JSONEncoder set for the API's snake_case keys and ISO 8601 dates.
        let decoder = JsonProvider.makeDecoder()
        let encoder = JsonProvider.makeEncoder()
        let clock = ContinuousClock()
        let start = clock.now
        var (items, pages, pageNumber) = (0, 0, 1)
        var cursor: String?
        var nextURL: URL?
        var gaps = Duration.zero
        var lastArrival: ContinuousClock.Instant?
        while true {
            if let lastArrival { gaps += lastArrival.duration(to: clock.now) }
            let pageURL: URL
            switch paging {
            case .page, .cursor:
                var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
                var query = [URLQueryItem(name: paging == .page ? "per_page" : "limit", value: String(pageSize))]
                if paging == .page { query.append(URLQueryItem(name: "page", value: String(pageNumber))) }
                if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
                components?.queryItems = query
                guard let url = components?.url else { throw ValidationError("cannot build a page URL") }
                pageURL = url
            case .next, .link:
                pageURL = nextURL ?? url
            }
            let (data, response) = try await session.data(from: pageURL)
            lastArrival = clock.now
            let body =
                paging == .link
                ? Body(results: try decoder.decode([FixtureItem].self, from: data))
                : try decoder.decode(Body.self, from: data)
            try database.transaction {
                for item in body.results {
                    try insert.bind(item.id.rawValue, at: 1)
                    try insert.bind(try encoder.encode(item), at: 2)
                    try insert.run()
                }
            }
            items += body.results.count
            pages += 1
            let isLast: Bool
            switch paging {
            case .page:
                isLast = body.results.count < pageSize || body.total.map { items >= $0 } ?? false
                pageNumber += 1
            case .cursor:
                isLast = body.nextCursor == nil || body.results.isEmpty
                cursor = body.nextCursor
            case .next:
                nextURL = body.next.flatMap { URL(string: $0) }
                isLast = nextURL == nil
            case .link:
                let header = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Link")
                nextURL = header.flatMap { LinkHeader($0).url(rel: "next") }.flatMap { URL(string: $0) }
                isLast = nextURL == nil
            }
            if isLast {
                return Outcome(
                    wallMicroseconds: start.duration(to: clock.now).microseconds,
                    requestGapMicroseconds: pages > 1 ? gaps.microseconds / Double(pages - 1) : 0, items: items,
                    pages: pages)
            }
        }
    }
}
