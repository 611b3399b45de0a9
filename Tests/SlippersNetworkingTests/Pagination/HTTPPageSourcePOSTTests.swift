import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Testing

/// GraphQL connections and cursors in a POST body, paged over real HTTP from the fixture server.
@Suite struct HTTPPageSourcePOSTTests {
    static let postsQuery = """
        query Posts($first: Int!, $after: String) {
          posts(first: $first, after: $after) {
            totalCount
            edges { cursor node { id title } }
            pageInfo { hasNextPage endCursor }
          }
        }
        """

    static let nestedQuery = """
        query Issues($first: Int!, $after: String) {
          viewer { repository(name: "slippers") { issues(first: $first, after: $after) {
            nodes { id title }
            pageInfo { hasNextPage endCursor }
          } } }
        }
        """

    @Test(arguments: [95, 100])
    func aRelayConnectionIsPagedByPOSTToItsEndWithNoRequestPastIt(itemCount: Int) async throws {
        try await withFixtureServer(.init(itemCount: itemCount, pageSize: 20)) { server async throws in
            let style = PaginationStyle.graphQL(
                query: Self.postsQuery, operationName: "Posts", connectionPath: "posts", pageSize: 20)
            let source = HTTPPageSource(client: client(for: server), url: server.url(.graphql), style: style)
            let (items, pages) = try await walk(source, maxPages: 50)
            #expect(integerIDs(items) == Array(1...itemCount))
            #expect(pages.count == (itemCount + 19) / 20)
            #expect(pages.first?.total == itemCount)
            #expect(pages.last?.nextToken == nil)
            #expect(server.requestCount == pages.count)
            // The items are the edges' nodes, as the server sent them.
            let first = try #require(items.first)
            #expect(String(decoding: first.json, as: UTF8.self).hasPrefix(#"{"author""#))

            let requests = server.requests
            #expect(requests.allSatisfy { $0.method == "POST" && $0.headers["Content-Type"] == "application/json" })
            let body = try #require(requests.first?.jsonBody)
            #expect(body["query"] as? String == Self.postsQuery)
            #expect(body["operationName"] as? String == "Posts")
            let variables = try #require(body["variables"] as? [String: Any])
            #expect(variables["first"] as? Int == 20)
            #expect(variables["after"] is NSNull)
            // Each next page is asked for after the end cursor of the page before.
            let secondVariables = try #require(requests[1].jsonBody?["variables"] as? [String: Any])
            #expect(secondVariables["after"] as? String == pages[0].nextToken?.rawValue)
        }
    }

    @Test func aConnectionTwoLevelsDownListingNodesIsRead() async throws {
        try await withFixtureServer(.init(itemCount: 45, pageSize: 20)) { server async throws in
            let style = PaginationStyle.graphQL(
                query: Self.nestedQuery, connectionPath: "viewer.repository.issues", items: .nodes, pageSize: 20)
            let source = HTTPPageSource(client: client(for: server), url: server.url(.graphql), style: style)
            let (items, pages) = try await walk(source)
            #expect(integerIDs(items) == Array(1...45))
            #expect(pages.count == 3)
        }
    }

    @Test func theConnectionIsFoundInAResponse() async throws {
        try await withFixtureServer(.init(itemCount: 45, pageSize: 20)) { server async throws in
            let style = PaginationStyle.graphQL(query: Self.nestedQuery, connectionPath: "")
            let found = try await HTTPPageSource.detect(
                client: client(for: server), url: server.url(.graphql), posted: style, pageTwo: .every)
            guard case .graphQL(let connection) = found.source.style.kind else {
                Issue.record("not a GraphQL style")
                return
            }
            #expect(connection.connectionPath == "viewer.repository.issues")
            #expect(connection.items == .nodes)
            #expect(found.firstPage?.items.count == 20)
            #expect(found.detection.confidence == .high)
            #expect(server.requestCount == 1, "the connection's response is the first page")
        }
    }

    @Test func errorsWithStatus200AreAnErrorNamingTheFirstMessageAndItsPath() async throws {
        try await withFixtureServer(.init(itemCount: 60, pageSize: 20)) { server async throws in
            let style = PaginationStyle.graphQL(
                query: Self.postsQuery, variables: #"{"failAt": 20}"#, connectionPath: "posts", pageSize: 20)
            let source = HTTPPageSource(client: client(for: server), url: server.url(.graphql), style: style)
            let first = try #require(try await source.fetch(.first).page)
            #expect(integerIDs(first.items) == Array(1...20))
            let error = await #expect(throws: NetworkError.self) {
                try await source.fetch(PageRequest(token: first.nextToken))
            }
            #expect(error?.kind == .graphQL(message: "Resolver failed at 20", path: "posts", errorCount: 2))
            #expect(error?.isTransient == false)
            let text = try #require(error?.description)
            #expect(text.hasPrefix("GraphQL error at posts: Resolver failed at 20 (and 1 more)"), "\(text)")
            #expect(!text.contains("\n"))
            // Not retried: the same query brings the same errors.
            #expect(server.requestCount == 2)
        }
    }

    @Test func aValidationErrorWithoutDataOrPathIsNamed() async throws {
        try await withFixtureServer(.init(itemCount: 10, pageSize: 5)) { server async throws in
            let style = PaginationStyle.graphQL(query: "{ posts { brokenField } }", connectionPath: "posts")
            let source = HTTPPageSource(client: client(for: server), url: server.url(.graphql), style: style)
            let error = await #expect(throws: NetworkError.self) { try await source.fetch(.first) }
            #expect(
                error?.kind
                    == .graphQL(message: #"Cannot query field "brokenField" on type "Post"."#, path: nil, errorCount: 1)
            )
        }
    }

    @Test func aMissingConnectionSaysWhereItWasLookedFor() async throws {
        try await withFixtureServer(.init(itemCount: 10, pageSize: 5)) { server async throws in
            let style = PaginationStyle.graphQL(query: Self.postsQuery, connectionPath: "search")
            let source = HTTPPageSource(client: client(for: server), url: server.url(.graphql), style: style)
            let error = await #expect(throws: NetworkError.self) { try await source.fetch(.first) }
            #expect(error?.description.contains("data.search") == true, "\(String(describing: error))")
            #expect(error?.description.contains("no connection") == true)
        }
    }

    @Test func twoQueriesOfOneURLAreTwoListsAndTheKeyHoldsNoVariableValue() throws {
        let client = APIClient(configuration: ServerConfiguration(host: "api.test"))
        let url = URL(string: "https://api.test/graphql")!
        func key(_ style: PaginationStyle) -> String {
            HTTPPageSource(client: client, url: url, style: style).listKey
        }
        let posts = key(.graphQL(query: Self.postsQuery, connectionPath: "posts", pageSize: 20))
        let issues = key(.graphQL(query: Self.nestedQuery, connectionPath: "viewer.repository.issues"))
        let other = key(
            .graphQL(query: Self.postsQuery, variables: #"{"tag": "secret-value"}"#, connectionPath: "posts"))
        #expect(Set([posts, issues, other]).count == 3)
        #expect(posts.hasPrefix("https://api.test/graphql#graphql:posts:"))
        #expect(!other.contains("secret-value"))
        // The page size and the cursor are not part of the list.
        #expect(key(.graphQL(query: Self.postsQuery, connectionPath: "posts", pageSize: 50)) == posts)
        #expect(
            key(.graphQL(query: Self.postsQuery, variables: #"{"first": 5, "after": "x"}"#, connectionPath: "posts"))
                == posts)
        // The items are filed under the connection's name.
        #expect(
            HTTPPageSource(client: client, url: url, style: .graphQL(query: "", connectionPath: "repository.issues"))
                .defaultItemType == "issues@https://api.test")
    }

    @Test func aNotionStyleBodyCursorIsPagedToItsEnd() async throws {
        try await withFixtureServer(.init(itemCount: 55, pageSize: 20)) { server async throws in
            let style = PaginationStyle.bodyCursor(
                body: #"{"filter": {"property": "Done", "checkbox": {"equals": false}}}"#, cursorPath: "start_cursor",
                nextCursor: .response(keyPath: "next_cursor"), pageSizePath: "page_size", pageSize: 20)
            let source = HTTPPageSource(client: client(for: server), url: server.url(.search), style: style)
            let (items, pages) = try await walk(source)
            #expect(integerIDs(items) == Array(1...55))
            #expect(pages.count == 3)
            #expect(server.requestCount == 3)
            let bodies = server.requests.compactMap(\.jsonBody)
            #expect(bodies.allSatisfy { $0["page_size"] as? Int == 20 && $0["filter"] != nil })
            #expect(bodies[0]["start_cursor"] == nil)
            #expect(bodies[1]["start_cursor"] as? String == "c-20")
            // The token is the cursor's JSON text.
            #expect(pages[0].nextToken == PageToken(#""c-20""#))
        }
    }

    @Test func anElasticsearchSearchAfterTakesTheLastHitsSort() async throws {
        try await withFixtureServer(.init(itemCount: 45, pageSize: 20)) { server async throws in
            let style = PaginationStyle.bodyCursor(
                body: #"{"query": {"match_all": {}}, "sort": [{"id": "asc"}]}"#, cursorPath: "search_after",
                nextCursor: .lastItem(keyPath: "sort"), pageSizePath: "size", pageSize: 20, itemsKeyPath: "hits.hits",
                idField: "_id")
            let source = HTTPPageSource(client: client(for: server), url: server.url(.search), style: style)
            let (items, pages) = try await walk(source)
            #expect(items.map(\.key) == (1...45).map { .string(String($0)) })
            // A short last page still asks once more: Elasticsearch says nothing of the end but an empty page.
            #expect(pages.count == 4)
            #expect(pages.last?.items.isEmpty == true)
            #expect(server.requests[1].jsonBody?["search_after"] as? [Int] == [20])
        }
    }

    @Test func aBodyThatIsNotAJSONObjectIsRefusedBeforeAnyRequest() async throws {
        try await withFixtureServer(.init(itemCount: 10, pageSize: 5)) { server async throws in
            for body in ["[1, 2]", "{not json"] {
                let style = PaginationStyle.bodyCursor(
                    body: body, cursorPath: "start_cursor", nextCursor: .response(keyPath: "next_cursor"))
                let source = HTTPPageSource(client: client(for: server), url: server.url(.search), style: style)
                let error = await #expect(throws: NetworkError.self) { try await source.fetch(.first) }
                guard case .invalidRequestBody? = error?.kind else {
                    Issue.record("\(String(describing: error))")
                    continue
                }
            }
            #expect(server.requestCount == 0)
        }
    }

    @Test func aPOSTIsNeverConditionalAndItsCacheHeadersAreIgnored() async throws {
        try await withFixtureServer(.init(itemCount: 10, pageSize: 5)) { server async throws in
            let style = PaginationStyle.graphQL(query: Self.postsQuery, connectionPath: "posts", pageSize: 5)
            let source = HTTPPageSource(client: client(for: server), url: server.url(.graphql), style: style)
            let page = try #require(
                try await source.fetch(PageRequest(token: nil, validators: PageValidators(etag: "\"abc\""))).page)
            #expect(page.items.count == 5)
            #expect(server.requests.first?.isConditional == false)
            #expect(page.caching == PageCaching())
            #expect(page.validators == PageValidators())
        }
    }
}

extension HTTPPageSourcePOSTTests {
    @Test func aTransientFailureOfAPOSTIsRetriedWithTheSameBody() async throws {
        try await withFixtureServer(.init(itemCount: 30, pageSize: 10)) { server async throws in
            let style = PaginationStyle.graphQL(query: Self.postsQuery, connectionPath: "posts", pageSize: 10)
            let source = HTTPPageSource(client: client(for: server), url: server.url(.graphql), style: style)
            let first = try #require(try await source.fetch(.first).page)
            server.inject(.status(503), count: 2)
            let second = try #require(try await source.fetch(PageRequest(token: first.nextToken)).page)
            #expect(integerIDs(second.items) == Array(11...20))
            let bodies = server.requests.dropFirst().map(\.body)
            #expect(bodies.count == 3)
            #expect(Set(bodies).count == 1)
        }
    }
}
