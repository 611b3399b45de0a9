import Foundation
import Slippers
import SlippersNetworking
import Testing

/// A page and size inside a rison or JSON object in one query parameter: detected from the
/// URL, and advanced inside the object with its other members as they were.
@Suite struct PaginationStyleEncodedParametersTests {
    private func url(_ q: String, extra: String = "") -> URL {
        var components = URLComponents(string: "https://api.test/api/v1/chart/")!
        components.queryItems =
            [URLQueryItem(name: "q", value: q)] + (extra.isEmpty ? [] : [URLQueryItem(name: "x", value: extra)])
        return components.url!
    }

    @Test func aRisonPageFromZeroIsDetectedWithItsSize() throws {
        let url = url("(order_column:changed_on,order_direction:desc,page:0,page_size:100)")
        let body = Data(#"{"count": 1234, "ids": [1, 2], "result": [{"id": 1}, {"id": 2}]}"#.utf8)
        let detection = PaginationStyle.explain(url: url, body: body, headers: [:])
        #expect(detection.style.kind == .pageNumber(parameter: "q.page", firstPage: 0))
        #expect(detection.style.pageSizeParameter == "q.page_size")
        #expect(detection.style.pageSize == 100)
        #expect(detection.style.itemsKeyPath == "result")
        #expect(detection.style.totalKeyPath == "count")
        #expect(detection.reasons.contains { $0.contains("rison object of ?q=") })
    }

    @Test func aJSONPageAndAnEncodedOffsetAreDetected() {
        let body = Data(#"{"items": [{"id": 1}], "total": 50}"#.utf8)
        let page = PaginationStyle.explain(url: url(#"{"page":1,"per_page":20}"#), body: body, headers: [:])
        #expect(page.style.kind == .pageNumber(parameter: "q.page", firstPage: 1))
        #expect(page.style.pageSizeParameter == "q.per_page")
        let offset = PaginationStyle.explain(url: url("(limit:20,skip:0)"), body: body, headers: [:])
        #expect(offset.style.kind == .offset(parameter: "q.skip"))
        #expect(offset.style.pageSizeParameter == "q.limit")
        #expect(offset.style.pageSize == 20)
    }

    @Test func aParameterThatHoldsNoPagingIsNoEncodedPaging() {
        #expect(PaginationStyle.encodedPaging(in: url("(order_column:name)")) == nil)
        #expect(PaginationStyle.encodedPaging(in: url("(page:'2')")) == nil)
        #expect(PaginationStyle.encodedPaging(in: url("page:0")) == nil)
    }

    @Test func pagesAreAskedForInsideTheObjectTheOthersMembersUnchanged() throws {
        let url = url("(filters:!((col:title,opr:ct,value:'it!'s a b')),page:0,page_size:100)", extra: "1")
        var style = PaginationStyle.pageNumber(
            parameter: "q.page", firstPage: 0, pageSizeParameter: "q.page_size", pageSize: 50)
        let source = HTTPPageSource(
            client: APIClient(configuration: ServerConfiguration(host: "api.test")), url: url, style: style)
        let second = try source.requestURL(for: PageToken(1))
        let items = URLComponents(url: second, resolvingAgainstBaseURL: false)?.queryItems
        #expect(
            items == [
                URLQueryItem(name: "q", value: "(filters:!((col:title,opr:ct,value:'it!'s a b')),page:1,page_size:50)"),
                URLQueryItem(name: "x", value: "1"),
            ])

        // A name whose prefix holds no encoded object is a plain parameter.
        style.kind = .pageNumber(parameter: "x.page", firstPage: 0)
        style.pageSizeParameter = nil
        var plain = source
        plain.style = style
        let named = try plain.requestURL(for: PageToken(3))
        #expect(URLComponents(url: named, resolvingAgainstBaseURL: false)?.queryItems?.last?.name == "x.page")
    }

    @Test func anEncodedPageTheURLDoesNotHoldIsCreatedInRison() throws {
        let bare = URL(string: "https://api.test/api/v1/item/?x=1")!
        let style = PaginationStyle.pageNumber(
            parameter: "q.page", firstPage: 0, pageSizeParameter: "q.page_size", pageSize: 20)
        var source = HTTPPageSource(
            client: APIClient(configuration: ServerConfiguration(host: "api.test")), url: bare, style: style)
        let next = try source.requestURL(for: PageToken(3))
        #expect(next.absoluteString == "https://api.test/api/v1/item/?x=1&q=(page:3,page_size:20)")

        // A parameter of that very name, dot included, is the URL's own: it is set as it is.
        source = HTTPPageSource(
            client: APIClient(configuration: ServerConfiguration(host: "api.test")),
            url: URL(string: "https://api.test/items?q.page=1")!,
            style: .pageNumber(parameter: "q.page", pageSizeParameter: nil))
        let named = try source.requestURL(for: PageToken(2))
        #expect(named.absoluteString == "https://api.test/items?q.page=2")
    }

    @Test func aPlusInTheURLIsASpaceAndAPlusOfTheObjectIsSentEncoded() throws {
        // As a form reads a query: `+` is a space, `%2B` a plus; the other parameters stay as they were sent.
        let url = URL(string: "https://api.test/x?a=1+2&q=(f:'a+b%2Bc',page:0)&z=%2B")!
        let source = HTTPPageSource(
            client: APIClient(configuration: ServerConfiguration(host: "api.test")), url: url,
            style: .pageNumber(parameter: "q.page", firstPage: 0, pageSizeParameter: nil))
        let next = try source.requestURL(for: PageToken(1))
        #expect(next.absoluteString == "https://api.test/x?a=1+2&q=(f:'a%20b%2Bc',page:1)&z=%2B")
    }

    @Test func aJSONObjectIsWrittenBackAsJSON() throws {
        let url = url(#"{"filter":{"name":"a&b"},"page":1,"per_page":20}"#)
        let style = PaginationStyle.pageNumber(parameter: "q.page", pageSizeParameter: "q.per_page")
        let source = HTTPPageSource(
            client: APIClient(configuration: ServerConfiguration(host: "api.test")), url: url, style: style)
        let next = try source.requestURL(for: PageToken(2))
        let value = URLComponents(url: next, resolvingAgainstBaseURL: false)?.queryItems?.first?.value
        #expect(value == #"{"filter":{"name":"a&b"},"page":2,"per_page":20}"#)
    }
}
