import Foundation
import Slippers
import Testing

private struct Note: Codable, Identifiable, CacheIdentifiable, Equatable, Sendable {
    let id: ID<Note>
    let text: String
}

@Suite struct PageSourceTests {
    @Test func aPageKnowsWhetherItIsTheLast() {
        #expect(Page(items: [1], nextToken: nil).isLast)
        #expect(!Page(items: [1], nextToken: "2").isLast)
    }

    @Test func mappingKeepsTokensTotalAndValidators() async throws {
        let source = Array(1...4).pageSource(pageSize: 2).mapItems { "#\($0)" }
        let page = try #require(try await source.fetch(.first).page)
        #expect(page.items == ["#1", "#2"])
        #expect(page.nextToken == "2")
        #expect(page.total == 4)
    }

    @Test func typedItemsAreEncodedAsRawItemsWithTheirKeys() async throws {
        let notes = [Note(id: 1, text: "a"), Note(id: 2, text: "b")]
        let page = try #require(try await notes.pageSource(pageSize: 5).encodingItems().fetch(.first).page)
        #expect(page.items.map(\.key) == [.integer(1), .integer(2)])
        #expect(String(decoding: page.items[0].json, as: UTF8.self) == #"{"id":1,"text":"a"}"#)
        #expect(try page.items[1].decode(Note.self) == notes[1])
    }

    @Test func notModifiedHasNoPage() {
        let result = PageResult<Int>.notModified(PageValidators(etag: "\"v1\""))
        #expect(result.page == nil)
        #expect(PageValidators().isEmpty)
        #expect(!PageValidators(lastModified: "Wed, 21 Oct 2015 07:28:00 GMT").isEmpty)
    }

    @Test func tokensHoldTextOrIntegers() {
        #expect(PageToken(50).intValue == 50)
        #expect(PageToken("cursor").intValue == nil)
        #expect(PageToken("https://api.example.com/items?page=2").description == "https://api.example.com/items?page=2")
    }
}
