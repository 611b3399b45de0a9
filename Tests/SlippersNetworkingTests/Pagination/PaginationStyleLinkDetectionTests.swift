import Foundation
import Slippers
import SlippersNetworking
import Testing

/// Next links wherever the body or the headers give them, found before anything is guessed, and
/// the counts that keep a list from being taken for one page.
@Suite struct PaginationStyleLinkDetectionTests {
    private func explain(_ url: String, _ body: String, headers: [String: String] = [:]) -> PaginationStyle.Detection {
        PaginationStyle.explain(url: URL(string: url)!, body: Data(body.utf8), headers: headers)
    }

    @Test func aLinksArrayWithRelNextIsFollowed() {
        let detection = explain(
            "https://geo.test/lists/lakes/items",
            #"{"type": "FeatureCollection", "features": [{"id": 1}, {"id": 2}], "numberMatched": 1234,"#
                + #""numberReturned": 2, "links": [{"rel": "self", "href": "https://geo.test/lists/lakes/items"},"#
                + #"{"rel": "next", "href": "https://geo.test/lists/lakes/items?offset=2","#
                + #""type": "application/geo+json"}]}"#)
        #expect(detection.style.kind == .nextURL(keyPath: "links"))
        #expect(detection.style.itemsKeyPath == "features")
        #expect(detection.style.totalKeyPath == "numberMatched")
        #expect(detection.style.advancing?.parameter == "offset")
        #expect(detection.confidence == .high)
    }

    @Test func aLinksArrayWithoutRelNextIsTheLastPageOfALinkedList() {
        let detection = explain(
            "https://geo.test/items",
            #"{"features": [{"id": 1}], "numberMatched": 1, "links": [{"rel": "self", "href": "https://geo.test/items"}]}"#
        )
        #expect(detection.style.kind == .nextURL(keyPath: "links"))
        #expect(detection.confidence == .medium)
    }

    @Test func anODataPageWithoutANextLinkKeepsItsCount() {
        let detection = explain(
            "https://api.test/odata/People",
            #"{"@odata.context": "$metadata#People", "@odata.count": 1234, "value": [{"id": 1}]}"#)
        #expect(detection.style.totalKeyPath == #"@odata\.count"#)
    }

    @Test func aRelativeHrefIsANextLink() {
        let detection = explain(
            "https://geo.test/lists/lakes/items",
            #"{"features": [{"id": 1}], "links": [{"rel": "next", "href": "items?offset=1"}]}"#)
        #expect(detection.style.kind == .nextURL(keyPath: "links"))
        #expect(detection.style.advancing?.parameter == "offset")
    }

    @Test(arguments: [#"["next"]"#, #""next nofollow""#, #"["alternate", "next"]"#])
    func aRelGivenAsAListOrSeveralWordsCounts(rel: String) {
        let detection = explain(
            "https://api.test/things",
            #"{"entities": [{"id": 1}], "links": [{"rel": \#(rel), "href": "/things?page=2"}]}"#)
        #expect(detection.style.kind == .nextURL(keyPath: "links"))
    }

    @Test func halsNextHrefIsFollowed() {
        let detection = explain(
            "https://api.test/people",
            #"{"_embedded": {"people": [{"id": 1}]}, "_links": {"self": {"href": "https://api.test/people"},"#
                + #""next": {"href": "https://api.test/people?page=1&size=20"}}, "page": {"totalElements": 90}}"#)
        #expect(detection.style.kind == .nextURL(keyPath: "_links.next"))
    }

    @Test(arguments: ["Next-Page", "X-Next-Page", "X-Next"])
    func aHeaderHoldingTheNextURLIsFollowed(header: String) {
        let detection = explain(
            "https://api.test/events", #"[{"id": 9}, {"id": 8}]"#,
            headers: [header: "https://api.test/events?_token=abc"])
        #expect(detection.style.kind == .linkHeader)
        #expect(detection.reasons.contains("the next page's URL in the \(header) header"))
        #expect(detection.hints.contains("the \(header) header"))
    }

    @Test func aPageNumberInXNextPageIsNoURL() {
        let detection = explain("https://api.test/events", #"[{"id": 9}, {"id": 8}]"#, headers: ["X-Next-Page": "2"])
        #expect(detection.style.kind != .linkHeader)
    }

    @Test(arguments: ["numberMatched", "hitCount", "totalRows", "count"])
    func aCountAboveThePageIsAHintThatItPages(member: String) {
        let detection = explain("https://api.test/rows", #"{"rows": [{"id": 1}, {"id": 2}], "\#(member)": 1234}"#)
        #expect(!detection.hints.isEmpty, "\(detection.hints)")
    }

    @Test func aCountNoLargerThanThePageIsNoHint() {
        let detection = explain("https://api.test/rows", #"{"rows": [{"id": 1}, {"id": 2}], "hitCount": 2}"#)
        #expect(detection.hints.isEmpty, "\(detection.hints)")
    }
}

/// Next URLs under names of their own, and relative links with a base of their own.
@Suite struct PaginationStyleNextMemberTests {
    private func explain(_ url: String, _ body: String) -> PaginationStyle.Detection {
        PaginationStyle.explain(url: URL(string: url)!, body: Data(body.utf8), headers: [:])
    }

    @Test(arguments: ["nextRecordsUrl", "next_page_uri", "nextHref"])
    func aMemberNamedForTheNextPageHoldingAURLIsANextURL(member: String) {
        let detection = explain(
            "https://api.test/query?q=x",
            #"{"records": [{"id": 1}], "totalSize": 9, "\#(member)": "/query/01g-2000"}"#)
        #expect(detection.style.kind == .nextURL(keyPath: member))
    }

    @Test func aRelativeLinkIsJoinedToTheBaseBesideIt() async throws {
        let transport = ScriptedTransport([
            .success(
                .json(
                    #"{"results": [{"id": 1}], "_links": {"base": "https://x.test/wiki", "#
                        + #""next": "/rest/api/content?start=1&limit=1"}}"#))
        ])
        let source = HTTPPageSource(
            client: APIClient(
                configuration: ServerConfiguration(host: "x.test"),
                options: APIClient.Options(transport: transport, retryPolicy: .none)),
            url: URL(string: "https://x.test/wiki/rest/api/content?limit=1")!,
            style: .nextURL(keyPath: "_links.next", itemsKeyPath: "results"))
        let page = try #require(try await source.fetch(.first).page)
        #expect(page.nextToken?.rawValue == "https://x.test/wiki/rest/api/content?start=1&limit=1")
    }
}
