import Foundation
import Slippers
import SlippersNetworking
import Testing

/// Detection of the styles real APIs use, from their first page's body, and its explanation.
@Suite struct PaginationStyleDetectionTests {
    private func explain(_ url: String, _ body: String, headers: [String: String] = [:]) -> PaginationStyle.Detection {
        PaginationStyle.explain(url: URL(string: url)!, body: Data(body.utf8), headers: headers)
    }

    @Test func stripeHasMoreWithoutACursorPagesAfterTheLastItem() {
        let detection = explain(
            "https://api.stripe.com/v1/customers?limit=3",
            #"{"object": "list", "url": "/v1/customers", "has_more": true, "data": [{"id": "cus_1"}, {"id": "cus_2"}]}"#
        )
        #expect(detection.style.kind == .afterLastItem(parameter: "starting_after"))
        #expect(detection.style.itemsKeyPath == "data")
        #expect(detection.style.endSignal == .hasMore(keyPath: "has_more"))
        #expect(detection.style.pageSize == 3)
        #expect(detection.style.pageSizeParameter == "limit")
        #expect(detection.confidence == .high)
        #expect(detection.itemCount == 2)
    }

    @Test func aHasMoreBesideAPageNumberIsAnEndSignal() {
        let style = explain(
            "https://api.stackexchange.com/2.3/questions?page=1&pagesize=30",
            #"{"items": [{"question_id": 1}], "has_more": true, "quota_max": 300}"#
        ).style
        #expect(style.kind == .pageNumber(parameter: "page", firstPage: 1))
        #expect(style.endSignal == .hasMore(keyPath: "has_more"))
    }

    @Test func nestedCursorsAreDetected() {
        let slack = explain(
            "https://slack.com/api/users.list?limit=2",
            #"{"ok": true, "members": [{"id": "U1"}], "response_metadata": {"next_cursor": "dXNlcjpVMEc5V0ZYTlo="}}"#)
        #expect(slack.style.kind == .cursor(parameter: "cursor", keyPath: "response_metadata.next_cursor"))
        #expect(slack.style.itemsKeyPath == "members")
        #expect(slack.confidence == .high)
        let meta = explain(
            "https://x.test/a", #"{"data": [{"id": 1}], "meta": {"next_cursor": "c2", "has_more": true}}"#)
        #expect(meta.style.kind == .cursor(parameter: "cursor", keyPath: "meta.next_cursor"))
        #expect(meta.style.endSignal == .hasMore(keyPath: "meta.has_more"))
    }

    @Test func jsonAPILinksNextIsANextURL() {
        let style = explain(
            "https://x.test/articles",
            #"{"data": [{"type": "articles", "id": "1"}], "links": {"self": "https://x.test/articles", "#
                + #""next": "https://x.test/articles?page%5Bnumber%5D=2"}, "meta": {"total": 40}}"#
        ).style
        #expect(style.kind == .nextURL(keyPath: "links.next"))
        #expect(style.itemsKeyPath == "data")
        #expect(style.totalKeyPath == "meta.total")
    }

    @Test func odataNextLinkIsReadWithAnEscapedKeyPath() {
        let detection = explain(
            "https://services.odata.org/V4/Northwind/Northwind.svc/Customers",
            #"{"@odata.context": "https://x.test/$metadata#Customers", "value": [{"id": 1}], "#
                + #""@odata.nextLink": "https://x.test/Customers?$skiptoken='ERNSH'"}"#)
        #expect(detection.style.kind == .nextURL(keyPath: #"@odata\.nextLink"#))
        #expect(detection.style.itemsKeyPath == "value")
        #expect(detection.confidence == .high)
        let lastPage = explain("https://x.test/C", #"{"@odata.context": "c", "value": [{"id": 1}]}"#)
        #expect(lastPage.style.kind == .nextURL(keyPath: #"@odata\.nextLink"#))
        #expect(lastPage.confidence == .medium)
    }

    @Test func springDataPagesFromZeroUntilLast() {
        let detection = explain(
            "https://x.test/api/people",
            #"{"content": [{"id": 1}, {"id": 2}], "pageable": {"pageNumber": 0, "pageSize": 2, "offset": 0}, "#
                + #""last": false, "totalPages": 5, "totalElements": 10, "first": true, "size": 2, "number": 0, "#
                + #""numberOfElements": 2, "empty": false}"#)
        let style = detection.style
        #expect(style.kind == .pageNumber(parameter: "page", firstPage: 0))
        #expect(style.itemsKeyPath == "content")
        #expect(style.pageSizeParameter == "size")
        #expect(style.pageSize == 2)
        #expect(style.totalKeyPath == "totalElements")
        #expect(style.endSignal == .isLast(keyPath: "last"))
        #expect(detection.confidence == .high)
        let viaDTO = explain(
            "https://x.test/api/people",
            #"{"content": [{"id": 1}], "page": {"size": 20, "number": 0, "totalElements": 1, "totalPages": 1}}"#
        ).style
        #expect(viaDTO.kind == .pageNumber(parameter: "page", firstPage: 0))
        #expect(viaDTO.endSignal == .pageCount(keyPath: "page.totalPages"))
        #expect(viaDTO.totalKeyPath == "page.totalElements")
    }

    @Test func fastAPIPaginationGivesPagesAndSize() {
        let style = explain(
            "http://127.0.0.1:8000/items", #"{"items": [{"id": 1}], "total": 120, "page": 1, "size": 50, "pages": 3}"#
        ).style
        #expect(style.kind == .pageNumber(parameter: "page", firstPage: 1))
        #expect(style.pageSizeParameter == "size")
        #expect(style.pageSize == 50)
        #expect(style.endSignal == .pageCount(keyPath: "pages"))
        #expect(style.totalKeyPath == "total")
    }

    @Test func datasetteNextURLAndRows() {
        let style = explain(
            "http://127.0.0.1:8001/db/items.json?_shape=objects",
            #"{"database": "db", "table": "items", "rows": [{"id": 1}], "next": "100", "#
                + #""next_url": "http://127.0.0.1:8001/db/items.json?_next=100&_shape=objects"}"#
        ).style
        #expect(style.kind == .nextURL(keyPath: "next_url"))
        #expect(style.itemsKeyPath == "rows")
        let arrays = explain(
            "http://127.0.0.1:8001/db/items.json", #"{"rows": [[1, "a"]], "filtered_table_rows_count": 1}"#)
        #expect(arrays.confidence == .low)
        #expect(arrays.reasons.contains("the items are arrays, not objects; ask the server for objects"))
        #expect(arrays.style.totalKeyPath == "filtered_table_rows_count")
    }

    @Test func aNullNextBesidePreviousIsANextURLListOnItsOnlyPage() {
        let detection = explain(
            "http://127.0.0.1:8000/api/items/", #"{"count": 2, "next": null, "previous": null, "results": [{"id": 1}]}"#
        )
        #expect(detection.style.kind == .nextURL(keyPath: "next"))
        #expect(detection.style.totalKeyPath == "count")
        #expect(detection.confidence == .medium)
    }

    @Test func theExplanationSaysWhatWasSeen() {
        let detection = explain(
            "https://x.test/a?page=1&per_page=2",
            #"{"results": [{"uuid": "a"}, {"uuid": "b"}], "total": 9, "total_pages": 5}"#)
        #expect(detection.style.idField == "uuid")
        #expect(detection.reasons.contains("items under results"))
        #expect(detection.reasons.contains("items have uuid"))
        #expect(detection.reasons.contains("a page count at total_pages"))
        #expect(detection.endOfList.contains("the page count at total_pages reached"))
        let guess = explain("https://x.test/a", "<html>")
        #expect(guess.confidence == .low)
        #expect(guess.reasons.first == "the body is not JSON")
        #expect(guess.itemCount == nil)
    }

    @Test func stylesStoredBeforeEndSignalsStillDecode() throws {
        let stored = [
            #"{"idField":"id","itemsKeyPath":"results","kind":{"pageNumber":{"firstPage":1,"parameter":"page"}},"#
                + #""pageSize":50,"pageSizeParameter":"per_page","totalKeyPath":"total"}"#,
            #"{"idField":"id","itemsKeyPath":"","kind":{"linkHeader":{}},"pageSizeParameter":"per_page"}"#,
            #"{"idField":"id","itemsKeyPath":"data","kind":{"cursor":{"keyPath":"next_cursor","parameter":"cursor"}},"#
                + #""pageSizeParameter":"limit"}"#,
        ]
        let decoded = try stored.map { try JSONDecoder().decode(PaginationStyle.self, from: Data($0.utf8)) }
        #expect(decoded[0] == .pageNumber(pageSize: 50, itemsKeyPath: "results", totalKeyPath: "total"))
        #expect(decoded[1] == .linkHeader())
        #expect(decoded[2] == .cursor())
        #expect(decoded.allSatisfy { $0.endSignal == nil })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(decoded[0]), as: UTF8.self) == stored[0])
    }

    @Test func newStylesRoundTripThroughJSON() throws {
        let styles: [PaginationStyle] = [
            .afterLastItem(pageSize: 10),
            .cursor(keyPath: "response_metadata.next_cursor", itemsKeyPath: "members"),
            .nextURL(keyPath: #"@odata\.nextLink"#, itemsKeyPath: "value"),
            .pageNumber(
                firstPage: 0, pageSizeParameter: "size", itemsKeyPath: "content", totalKeyPath: "totalElements",
                endSignal: .isLast(keyPath: "last")),
            .pageNumber(itemsKeyPath: "items", endSignal: .pageCount(keyPath: "pages")),
        ]
        for style in styles {
            let data = try JSONEncoder().encode(style)
            #expect(try JSONDecoder().decode(PaginationStyle.self, from: data) == style)
        }
    }
}
