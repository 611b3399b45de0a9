import Foundation
import Slippers
import SlippersNetworking
import Testing

/// Which pages an HTTP source names by index, and how many pages a total makes.
@Suite struct HTTPPageSourceAddressingTests {
    private func source(_ style: PaginationStyle) -> HTTPPageSource {
        HTTPPageSource(
            client: APIClient(
                configuration: ServerConfiguration(host: "api.test"), options: APIClient.Options(retryPolicy: .none)),
            url: URL(string: "https://api.test/items")!, style: style)
    }

    @Test func pageNumbersAreNamedFromTheFirstPage() {
        let fromOne = source(.pageNumber(pageSize: 50))
        #expect(fromOne.token(forPageAt: 0) == PageToken(1))
        #expect(fromOne.token(forPageAt: 4) == PageToken(5))
        let fromZero = source(.pageNumber(firstPage: 0))
        #expect(fromZero.token(forPageAt: 4) == PageToken(4))
        #expect(fromZero.token(forPageAt: -1) == nil)
    }

    @Test func theTokenOfAPageIsTheNextTokenOfThePageBefore() async throws {
        let transport = ScriptedTransport(.json(#"{"results": [{"id": 1}, {"id": 2}], "total": 9}"#))
        let style = PaginationStyle.offset(limit: 2)
        let source = HTTPPageSource(
            client: APIClient(
                configuration: ServerConfiguration(host: "api.test"),
                options: APIClient.Options(transport: transport, retryPolicy: .none)),
            url: URL(string: "https://api.test/items")!, style: style)
        let first = try #require(try await source.fetch(.first).page)
        #expect(first.nextToken == source.token(forPageAt: 1))
    }

    @Test func offsetsAreNamedOnlyWithAPageSize() {
        #expect(source(.offset(limit: 25)).token(forPageAt: 3) == PageToken(75))
        #expect(source(.offset()).token(forPageAt: 3) == nil)
    }

    @Test func cursorsAndNextLinksNameNoPage() {
        #expect(source(.cursor()).token(forPageAt: 1) == nil)
        #expect(source(.nextURL()).token(forPageAt: 1) == nil)
        #expect(source(.linkHeader()).token(forPageAt: 1) == nil)
    }

    @Test func aTotalMakesAPageCount() {
        // Page numbers count in the pages the server sends, which may be smaller than asked for.
        #expect(source(.pageNumber(pageSize: 100)).pageCount(forTotal: 487, pageItemCount: 50) == 10)
        #expect(source(.pageNumber()).pageCount(forTotal: 500, pageItemCount: 50) == 10)
        #expect(source(.offset(limit: 25)).pageCount(forTotal: 300, pageItemCount: 25) == 12)
        #expect(source(.offset()).pageCount(forTotal: 300, pageItemCount: 25) == nil)
        #expect(source(.cursor()).pageCount(forTotal: 300, pageItemCount: 25) == nil)
        #expect(source(.pageNumber()).pageCount(forTotal: 0, pageItemCount: 50) == 1)
    }
}
