import Foundation
import Slippers
import SlippersNetworking
import Testing

@Suite struct PaginationStyleTests {
    private func detect(_ url: String, _ body: String, headers: [String: String] = [:]) -> PaginationStyle {
        PaginationStyle.explain(url: URL(string: url)!, body: Data(body.utf8), headers: headers).style
    }

    @Test func everyStyleRoundTripsThroughJSONForTheStore() throws {
        let styles: [PaginationStyle] = [
            .pageNumber(firstPage: 0, pageSize: 25, itemsKeyPath: "data.items", totalKeyPath: "meta.total"),
            .offset(limit: 50), .cursor(parameter: "after", keyPath: "meta.next", pageSize: 10, idField: "uuid"),
            .nextURL(keyPath: "next_url"), .linkHeader(pageSize: 100),
        ]
        for style in styles {
            let text = String(decoding: try JSONEncoder().encode(style), as: UTF8.self)
            #expect(try JSONDecoder().decode(PaginationStyle.self, from: Data(text.utf8)) == style)
        }
    }

    @Test func paginationParametersAreThoseTheStyleSets() {
        #expect(PaginationStyle.pageNumber(pageSize: 20).paginationParameters == ["page", "per_page"])
        #expect(PaginationStyle.offset().paginationParameters == ["offset", "limit"])
        #expect(PaginationStyle.nextURL().paginationParameters == [])
    }

    @Test func aLinkHeaderWinsOverTheBody() {
        let style = detect(
            "https://api.github.com/repos?per_page=30", #"[{"id": 1}]"#,
            headers: ["link": #"<https://api.github.com/repos?page=2>; rel="next""#])
        #expect(style.kind == .linkHeader)
        #expect(style.itemsKeyPath == "")
        #expect(style.pageSize == 30)
        #expect(style.pageSizeParameter == "per_page")
    }

    @Test(arguments: ["next", "next_url", "next_page_url"])
    func aNextURLInTheBodyIsDetected(key: String) {
        let style = detect(
            "https://x.test/api/items",
            #"{"count": 9, "\#(key)": "https://x.test/api/items?page=2", "results": [{"id": 1}]}"#)
        #expect(style.kind == .nextURL(keyPath: key))
        #expect(style.itemsKeyPath == "results")
        #expect(style.totalKeyPath == "count")
    }

    @Test func aNextURLUnderLinksIsDetected() {
        let style = detect("https://x.test/a", #"{"data": [{"id": 1}], "links": {"next": "/a?page=2"}}"#)
        #expect(style.kind == .nextURL(keyPath: "links.next"))
        #expect(style.itemsKeyPath == "data")
    }

    @Test func cursorFieldsAreDetected() {
        #expect(
            detect("https://x.test/a", #"{"data": [{"id": 1}], "next_cursor": "abc"}"#).kind
                == .cursor(parameter: "cursor", keyPath: "next_cursor"))
        #expect(
            detect("https://x.test/a", #"{"items": [{"id": 1}], "nextPageToken": "t2"}"#).kind
                == .cursor(parameter: "pageToken", keyPath: "nextPageToken"))
        #expect(
            detect("https://x.test/a?after=x", #"{"rows": [{"id": 1}], "meta": {"after": "y"}}"#).kind
                == .cursor(parameter: "after", keyPath: "meta.after"))
        #expect(
            detect("https://x.test/a", #"{"entries": [{"id": 1}], "next": "opaque123"}"#).kind
                == .cursor(parameter: "cursor", keyPath: "next"))
    }

    @Test func offsetAndLimitAreDetectedFromTheURLOrTheBody() {
        let fromURL = detect("https://x.test/a?offset=0&limit=25", #"{"records": [{"id": 1}], "total": 90}"#)
        #expect(fromURL.kind == .offset(parameter: "offset"))
        #expect(fromURL.pageSize == 25)
        #expect(fromURL.pageSizeParameter == "limit")
        #expect(fromURL.totalKeyPath == "total")
        #expect(fromURL.itemsKeyPath == "records")
        let fromBody = detect("https://x.test/a", #"{"results": [{"id": 1}], "offset": 0, "limit": 10, "total": 3}"#)
        #expect(fromBody.kind == .offset(parameter: "offset"))
        #expect(fromBody.pageSize == 10)
    }

    @Test func pageNumbersAreDetectedWithTheirFirstPage() {
        let zero = detect("https://x.test/a?page=0&page_size=5", #"{"data": {"items": [{"id": 1}]}, "total_pages": 3}"#)
        #expect(zero.kind == .pageNumber(parameter: "page", firstPage: 0))
        #expect(zero.pageSize == 5)
        #expect(zero.pageSizeParameter == "page_size")
        #expect(zero.itemsKeyPath == "data.items")
        let one = detect("https://x.test/a?page=1", #"[{"id": 1}]"#)
        #expect(one.kind == .pageNumber(parameter: "page", firstPage: 1))
    }

    @Test func theDocumentedDefaultsApplyWhenNothingIsRecognisable() {
        let style = detect("https://x.test/a", #"{"something": 1}"#)
        #expect(style.kind == .pageNumber(parameter: "page", firstPage: 1))
        #expect(style.itemsKeyPath == "results")
        let garbage = detect("https://x.test/a", "not json")
        #expect(garbage.kind == .pageNumber(parameter: "page", firstPage: 1))
    }

    @Test func aNullNextIsTheOnlyPageOfANextURLListNotACursor() {
        let style = detect("https://x.test/a", #"{"results": [{"id": 1}], "next": null, "count": 1}"#)
        #expect(style.kind == .nextURL(keyPath: "next"))
        #expect(style.totalKeyPath == "count")
        // Beside another cursor, or asked for with a page parameter, a null next says nothing alone.
        let slack = detect("https://x.test/a", #"{"data": [{"id": 1}], "next": null, "next_cursor": "abc"}"#)
        #expect(slack.kind == .cursor(parameter: "cursor", keyPath: "next_cursor"))
        let paged = detect("https://x.test/a?page=1", #"{"results": [{"id": 1}], "next": null}"#)
        #expect(paged.kind == .pageNumber(parameter: "page", firstPage: 1))
    }

    @Test func aSinglePageStyleAsksForTheURLAsItIsAndEndsThere() throws {
        let source = HTTPPageSource(
            client: APIClient(configuration: ServerConfiguration(host: "x.test")),
            url: URL(string: "https://x.test/posts?userId=1")!, style: .singlePage())
        #expect(try source.requestURL(for: nil).absoluteString == "https://x.test/posts?userId=1")
        #expect(throws: NetworkError.self) { try source.requestURL(for: PageToken(2)) }
        #expect(source.token(forPageAt: 1) == nil)
        #expect(source.pageCount(forTotal: 500, pageItemCount: 10) == 1)
        #expect(PaginationStyle.singlePage().paginationParameters.isEmpty)
    }
}
