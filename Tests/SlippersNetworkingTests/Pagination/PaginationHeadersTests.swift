import Foundation
import SlippersNetworking
import Testing

/// What response headers announce about a list: its total, its page count, its last page.
@Suite struct PaginationHeadersTests {
    @Test(arguments: [
        ["X-WP-Total": "1234", "X-WP-TotalPages": "124"], ["X-Total": "1234", "X-Total-Pages": "124"],
        ["X-Pagination-Total-Count": "1234", "X-Pagination-Page-Count": "124"], ["Total-Records": "1234"],
    ])
    func totalsInHeadersAreRead(headers: [String: String]) {
        let announced = PaginationHeaders { name in
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        #expect(announced.total == 1234)
        if headers.count > 1 { #expect(announced.pageCount == 124) }
        let detection = PaginationStyle.explain(
            url: URL(string: "https://api.test/posts")!, body: Data(#"[{"id": 1}]"#.utf8), headers: headers)
        #expect(detection.totalHeader != nil)
        #expect(!detection.hints.isEmpty)
    }

    @Test func anEmptyXNextPageSaysThePageIsTheLast() {
        let last = PaginationHeaders { ["X-Next-Page": "", "X-Total": "41"][$0] }
        #expect(last.isLastPage)
        let more = PaginationHeaders { ["X-Next-Page": "3", "X-Total": "41"][$0] }
        #expect(!more.isLastPage)
    }
}
