import Foundation
import SlippersKit
import Testing

/// Where items are written and created: the default of a list URL, ids as path segments.
@Suite struct ItemURLTemplateTests {
    @Test(arguments: [
        ("https://api.test/posts/?page=2", "https://api.test/posts/{id}/", "https://api.test/posts/"),
        ("https://api.test/v2/items", "https://api.test/v2/items/{id}", "https://api.test/v2/items"),
        ("http://127.0.0.1:8080/a%20b?x=1", "http://127.0.0.1:8080/a%20b/{id}", "http://127.0.0.1:8080/a%20b"),
    ])
    func aListURLGivesItsItemsAndWhereNewOnesAreCreated(list: String, template: String, creation: String) throws {
        let url = try #require(URL(string: list))
        let made = try #require(ItemURLTemplate(listURL: url))
        #expect(made.text == template)
        #expect(made.creationURL == creation)
    }

    @Test func idsArePercentEncodedAsOnePathSegment() throws {
        let template = try #require(ItemURLTemplate("https://api.test/items/{id}.json"))
        #expect(template.url(for: .integer(-4)) == "https://api.test/items/-4.json")
        #expect(template.url(for: .string("a b/c?d")) == "https://api.test/items/a%20b%2Fc%3Fd.json")
        #expect(template.creationURL == "https://api.test/items")
    }

    @Test func aTemplateWithoutAnIDOrNotHTTPIsRefused() {
        #expect(ItemURLTemplate("https://api.test/items/") == nil)
        #expect(ItemURLTemplate("ftp://api.test/items/{id}") == nil)
        #expect(ItemURLTemplate("/items/{id}") == nil)
    }
}
