import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// `sync --graphql`, `sync --post-body` and `detect --graphql`, against the fixture API's POST routes.
@Suite struct SyncPostedCommandTests {
    static let posts =
        "query($first: Int!, $after: String) { posts(first: $first, after: $after) "
        + "{ edges { node { id title } } pageInfo { hasNextPage endCursor } } }"
    static let issues =
        "query Issues($first: Int!, $after: String) { viewer { repository(name: \"slippers\") "
        + "{ issues(first: $first, after: $after) { nodes { id title } pageInfo { hasNextPage endCursor } } } } }"

    @Test func aGraphQLConnectionIsSyncedExportedAndResumedWithOneRequestAPage() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(.graphql).absoluteString
            let queryFile = directory.url.appendingPathComponent("issues.graphql")
            try Data(Self.issues.utf8).write(to: queryFile)
            let first = try await BuiltBinary.slippers.run([
                "sync", url, "--graphql", "@" + queryFile.path, "--page-size", "20", "--max-pages", "2",
                "--header", "Authorization: Bearer s3cret-token", "--db", directory.path(),
            ])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("synced 40 items in 2 pages of \(url)#graphql:viewer.repository.issues:"))
            #expect(fixture.server.requestCount == 2)

            // The same credential: the same account's list is resumed.
            let rest = try await BuiltBinary.slippers.run([
                "sync", url, "--graphql", "@" + queryFile.path, "--page-size", "20",
                "--header", "Authorization: Bearer s3cret-token", "--db", directory.path(),
            ])
            #expect(rest.status == 0, "\(rest.stderr)")
            #expect(rest.stdout.contains("synced 55 items in 3 pages (resumed after 2 cached pages)"), "\(rest.stdout)")
            #expect(fixture.server.requestCount == 5)

            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            let list = try #require(try store.lists().first)
            #expect(list.endReached)
            // Synced with a credential: the items are its derived account's.
            #expect(list.itemType.hasPrefix("issues@http://127.0.0.1:\(fixture.server.port) [account: ~"))
            let export = try await BuiltBinary.slippers.run([
                "export", list.key, "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...95))
            let pages = try await BuiltBinary.slippers.run(["pages", list.key, "--db", directory.path()])
            #expect(pages.status == 0, "\(pages.stderr)")
            // No header value is stored: the file never holds the credential.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.path()))
            #expect(bytes.range(of: Data("s3cret-token".utf8)) == nil)
        }
    }

    static let hasura =
        "query($limit: Int!, $offset: Int!) { posts(limit: $limit, offset: $offset) { id title } "
        + "posts_aggregate { aggregate { count } } }"

    @Test func aGraphQLListPagedByOffsetOrPageVariablesIsSyncedExactlyAndItsTotalChecked() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let url = fixture.server.url(.graphql).absoluteString
            let described = [
                "--connection", "posts", "--total-path", "data.posts_aggregate.aggregate.count", "--page-size", "20",
            ]
            for paging in [["--offset-variable", "offset"], ["--page-variable", "page"]] {
                let directory = try TemporaryDirectory()
                fixture.server.resetRequests()
                let outcome = try await BuiltBinary.slippers.run(
                    ["sync", url, "--graphql", Self.hasura] + paging + described + ["--db", directory.path()])
                #expect(outcome.status == 0, "\(paging): \(outcome.stderr)")
                #expect(outcome.stdout.contains("synced 95 items in 5 pages"), "\(paging): \(outcome.stdout)")
                #expect(fixture.server.requestCount == 5, "\(paging)")
                let lists = try await BuiltBinary.slippers.run([
                    "lists", "--json", "--db", directory.path(),
                ])
                #expect(lists.stdout.contains(#""total" : 95"#), "\(lists.stdout)")
                let detect = try await BuiltBinary.slippers.run(
                    ["detect", url, "--graphql", Self.hasura] + paging + described)
                #expect(detect.status == 0, "\(detect.stderr)")
                #expect(detect.stdout.contains("paged by variables"), "\(detect.stdout)")
            }
            // A size variable for a Relay connection is refused: $first pages a connection.
            let refused = try await BuiltBinary.slippers.run([
                "sync", url, "--graphql", Self.posts, "--size-variable", "limit",
            ])
            #expect(refused.status == 64)
        }
    }

    @Test func anEmptyGraphQLListPagedByVariablesAtAGivenPathSyncsAsEmpty() async throws {
        try await RunningFixture.with(itemCount: 0, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.server.url(.graphql).absoluteString, "--graphql", Self.hasura, "--offset-variable",
                "offset", "--connection", "posts", "--page-size", "20", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 0 items"), "\(outcome.stdout)")
        }
    }

    static let paginationInput =
        "query($offset: Int, $limit: Int) { items(pagination: {offset: $offset, limit: $limit}) "
        + "{ totalCount results { id title } } }"
    static let numberedEdges =
        "query($page: Int, $pageSize: Int) { articles(page: $page, pageSize: $pageSize) "
        + "{ count edges { node { id title } } } }"

    @Test func aGraphQLListPagedByTheVariablesItDeclaresSyncsExactlyWithNoFlag() async throws {
        try await RunningFixture.with(itemCount: 123, pageSize: 20) { fixture in
            let url = fixture.server.url(.graphql).absoluteString
            for (query, pages) in [(Self.paginationInput, 3), (Self.numberedEdges, 3), (Self.hasura, 3)] {
                let directory = try TemporaryDirectory()
                fixture.server.resetRequests()
                let outcome = try await BuiltBinary.slippers.run([
                    "sync", url, "--graphql", query, "--db", directory.path(),
                ])
                #expect(outcome.status == 0, "\(query): \(outcome.stderr)")
                #expect(outcome.stdout.contains("synced 123 items in \(pages) pages"), "\(query): \(outcome.stdout)")
                #expect(fixture.server.requestCount <= pages + 1, "\(query)")
                let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
                let list = try #require(try store.lists().first)
                let export = try await BuiltBinary.slippers.run([
                    "export", list.key, "--format", "ndjson", "--db", directory.path(),
                ])
                #expect(try exportedIDs(export.stdout) == Array(1...123), "\(query)")
                if query != Self.hasura {
                    // The total beside the list is the server's, checked as a body total.
                    let lists = try await BuiltBinary.slippers.run([
                        "lists", "--json", "--db", directory.path(),
                    ])
                    #expect(lists.stdout.contains(#""total" : 123"#), "\(lists.stdout)")
                }
                let detect = try await BuiltBinary.slippers.run(["detect", url, "--graphql", query])
                #expect(detect.status == 0, "\(detect.stderr)")
                #expect(detect.stdout.contains("paged by variables"), "\(detect.stdout)")
            }
        }
    }

    @Test func theFlagsOfAnOffsetListNeedNoConnectionAndFindItsItemsWhateverTheirKey() async throws {
        try await RunningFixture.with(itemCount: 123, pageSize: 20) { fixture in
            let url = fixture.server.url(.graphql).absoluteString
            for connection in [[], ["--connection", "items"]] {
                let directory = try TemporaryDirectory()
                let outcome = try await BuiltBinary.slippers.run(
                    [
                        "sync", url, "--graphql", Self.paginationInput, "--offset-variable", "offset",
                        "--size-variable", "limit", "--page-size", "30",
                    ] + connection + ["--db", directory.path()])
                #expect(outcome.status == 0, "\(connection): \(outcome.stderr)")
                #expect(outcome.stdout.contains("synced 123 items in 5 pages"), "\(connection): \(outcome.stdout)")
            }
        }
    }

    @Test func anErrorsArrayIsOneLineNamingTheMessageAndThePagesBeforeItStay() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(.graphql).absoluteString
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--graphql", Self.posts, "--connection", "posts", "--variables", #"{"failAt": 40}"#,
                "--page-size", "20", "--db", directory.path(),
            ])
            #expect(outcome.status != 0)
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(outcome.stderr)")
            #expect(lines.first?.contains("GraphQL error at posts: Resolver failed at 40") == true, "\(outcome.stderr)")
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            #expect(try store.lists().first?.itemCount == 40)
        }
    }

    @Test func detectFindsTheConnectionAndSaysHowItPages() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let url = fixture.server.url(.graphql).absoluteString
            let outcome = try await BuiltBinary.slippers.run(["detect", url, "--graphql", Self.issues])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("GraphQL connection (at data.viewer.repository.issues, by POST)"))
            #expect(outcome.stdout.contains("data.viewer.repository.issues.nodes (50 items on the first page)"))
            #expect(outcome.stdout.contains("a Relay connection at data.viewer.repository.issues: nodes and pageInfo"))
            #expect(fixture.server.requestCount == 1)

            let json = try await BuiltBinary.slippers.run(["detect", url, "--graphql", Self.posts, "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(object?["confidence"] as? String == "high")

            let broken = try await BuiltBinary.slippers.run(["detect", url, "--graphql", "{ posts { brokenField } }"])
            #expect(broken.status != 0)
            #expect(broken.stderr.contains(#"GraphQL error: Cannot query field "brokenField""#), "\(broken.stderr)")
        }
    }

    @Test func aCursorInAPOSTBodyIsSynced() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(.search).absoluteString
            let notion = try await BuiltBinary.slippers.run([
                "sync", url, "--post-body", #"{"filter": {"value": "page"}}"#, "--cursor-path", "start_cursor",
                "--page-size-path", "page_size", "--page-size", "30", "--db", directory.path(),
            ])
            #expect(notion.status == 0, "\(notion.stderr)")
            #expect(notion.stdout.contains("synced 95 items in 4 pages of \(url)#post:"), "\(notion.stdout)")

            let search = try await BuiltBinary.slippers.run([
                "sync", url, "--post-body", #"{"sort": [{"id": "asc"}]}"#, "--cursor-path", "search_after",
                "--next-cursor-from-item", "sort", "--page-size-path", "size", "--page-size", "50",
                "--items-path", "hits.hits", "--id-field", "_id", "--db", directory.path(),
            ])
            #expect(search.status == 0, "\(search.stderr)")
            #expect(search.stdout.contains("synced 95 items in 3 pages"), "\(search.stdout)")
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            #expect(try store.lists().count == 2)
        }
    }

    /// A list asked for by POST whose body holds a page number or an offset: `{"page": 1,
    /// "limit": 50}` answered with `{"results", "count", "pages", "page"}`, or one object down.
    private static func servePostedPages(on server: FixtureServer, path: String, count: Int) {
        server.script(path) { request in
            let body = request.jsonBody ?? [:]
            let paging = body["paging"] as? [String: Any]
            let size = (body["limit"] as? Int) ?? (paging?["size"] as? Int) ?? 10
            let start: Int
            if let page = body["page"] as? Int {
                start = (page - 1) * size
            } else if let offset = paging?["offset"] as? Int {
                start = offset
            } else if let number = (body["p"] as? [String: Any])?["n"] as? Int {
                start = number * size
            } else {
                return FixtureServer.ScriptedResponse(status: 400, body: Data(#"{"error": "no page"}"#.utf8))
            }
            let items = (start..<min(count, start + size)).map { #"{"id": \#($0 + 1), "name": "item \#($0 + 1)"}"# }
            let list = "[" + items.joined(separator: ",") + "]"
            return .json(
                paging == nil
                    ? #"{"results": \#(list), "count": \#(count), "pages": \#((count + size - 1) / size), "page": 1}"#
                    : #"{"data": \#(list), "total": \#(count)}"#)
        }
    }

    @Test func aPageNumberOrAnOffsetInAPOSTBodyIsFoundAndAdvancedAsAParameterWouldBe() async throws {
        try await RunningFixture.with(itemCount: 10, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            Self.servePostedPages(on: fixture.server, path: "/posted", count: 1_241)
            let url = fixture.server.url(path: "/posted").absoluteString
            let pages = try await BuiltBinary.slippers.run([
                "sync", url, "--post-body", #"{"page": 1, "limit": 50}"#, "--db", directory.path(),
            ])
            #expect(pages.status == 0, "\(pages.stderr)")
            #expect(pages.stdout.contains("synced 1241 items in 25 pages"), "\(pages.stdout)")

            let nested = try await BuiltBinary.slippers.run([
                "sync", url, "--post-body", #"{"filter": {"q": "x"}, "paging": {"offset": 0, "size": 100}}"#,
                "--db", directory.path(),
            ])
            #expect(nested.status == 0, "\(nested.stderr)")
            #expect(nested.stdout.contains("synced 1241 items in 13 pages"), "\(nested.stdout)")

            // Named by hand: a page number from 0 at a path the vocabulary does not know.
            let named = try await BuiltBinary.slippers.run([
                "sync", url, "--post-body", #"{"p": {"n": 0}, "limit": 200}"#, "--style", "pageNumber",
                "--page-param", "p.n", "--db", directory.path(),
            ])
            #expect(named.status == 0, "\(named.stderr.prefix(600))")
            #expect(named.stdout.contains("synced 1241 items in 7 pages"), "\(named.stdout)")
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            #expect(try store.lists().map(\.itemCount) == [1_241, 1_241, 1_241])
        }
    }

    @Test func detectOfACursorInAPOSTBodySaysThatTheOptionsGivenAreAllItNeeds() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let url = fixture.server.url(.search).absoluteString
            let detect = try await BuiltBinary.slippers.run([
                "detect", url, "--post-body", #"{"filter": {"value": "page"}}"#, "--cursor-path", "start_cursor",
                "--page-size-path", "page_size", "--page-size", "30",
            ])
            #expect(detect.status == 0, "\(detect.stderr)")
            #expect(detect.stdout.contains("asked for page 2: page 2 brought new items"), "\(detect.stdout)")
            let row = try #require(detect.stdout.split(separator: "\n").first { $0.hasPrefix("flags ") })
            #expect(row.hasSuffix("none beyond the options given: sync finds this way as detect did"), "\(row)")
        }
    }

    @Test func detectReadsAPOSTBodyPagedByANumberAndItsFlagsSyncExactly() async throws {
        try await RunningFixture.with(itemCount: 10, pageSize: 10) { fixture in
            Self.servePostedPages(on: fixture.server, path: "/posted", count: 1_241)
            let url = fixture.server.url(path: "/posted").absoluteString
            let body = #"{"filter": {"q": "x"}, "paging": {"offset": 0, "size": 100}}"#
            let detect = try await BuiltBinary.slippers.run(["detect", url, "--post-body", body])
            #expect(detect.status == 0, "\(detect.stderr)")
            #expect(detect.stdout.contains("offsets in a POST body (at paging.offset)"), "\(detect.stdout)")
            #expect(detect.stdout.contains("asked for page 2: page 2 brought new items"), "\(detect.stdout)")
            let row = try #require(detect.stdout.split(separator: "\n").first { $0.hasPrefix("flags ") })
            #expect(row.contains("--style offset --page-param paging.offset --page-size-param paging.size"), "\(row)")
            let flags = row.dropFirst("flags".count).split(separator: " ").map(String.init)
            let directory = try TemporaryDirectory()
            let sync = try await BuiltBinary.slippers.run(
                ["sync", url, "--post-body", body, "--db", directory.path()] + flags)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.contains("synced 1241 items"), "\(sync.stdout)")
        }
    }

    @Test(arguments: [
        (["--graphql", "q", "--post-body", "{}", "--cursor-path", "c"], "cannot be used together"),
        (["--connection", "posts"], "--connection goes with --graphql"),
        (["--post-body", "{}"], "--post-body needs --cursor-path (where a cursor goes in the body) or --page-param"),
        (["--post-body", "{}", "--style", "cursor"], "does not apply to --post-body"),
        (["--graphql", "q", "--variables", "[1]"], "--variables must be a JSON object"),
        (["--graphql", "q", "--style", "pageNumber"], "--style does not apply"),
        (["--graphql", "q", "--items-path", "x"], "--items-path does not apply"),
        (["--graphql", "@/nonexistent/query.graphql"], "cannot read the file"),
    ])
    func misusedOptionsAreRefusedBeforeAnyRequest(arguments: [String], message: String) async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run(
            ["sync", "http://127.0.0.1:9/graphql"] + arguments + ["--db", directory.path()])
        #expect(outcome.status != 0)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func aRevalidatedGraphQLListIsToldUnchangedByItsDigestWithNoConditionalRequest() async throws {
        try await RunningFixture.with(itemCount: 60, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(.graphql).absoluteString
            let arguments = ["sync", url, "--graphql", Self.posts, "--page-size", "20", "--db", directory.path()]
            #expect(try await BuiltBinary.slippers.run(arguments).status == 0)
            fixture.server.resetRequests()
            fixture.server.update(id: 25, title: "Changed on the server")
            let revalidated = try await BuiltBinary.slippers.run(arguments + ["--revalidate"])
            #expect(revalidated.status == 0, "\(revalidated.stderr)")
            #expect(revalidated.stdout.contains("2 unchanged, 1 changed, 0 new"), "\(revalidated.stdout)")
            #expect(fixture.server.requestCount == 3)
            #expect(fixture.server.requests.allSatisfy { !$0.isConditional && $0.method == "POST" })
        }
    }
}
