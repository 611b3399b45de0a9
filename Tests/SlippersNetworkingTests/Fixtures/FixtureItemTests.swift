import Foundation
import LocalAPI
import Slippers
import Testing

@Suite struct FixtureItemTests {
    @Test func theServedJSONDecodesWithJsonProviderToTheMadeItem() throws {
        for id in [1, 2, 42, 999, 1_000_000] {
            let decoded = try JsonProvider.decode(FixtureItem.self, from: FixtureItem.json(id: id))
            let made = FixtureItem.make(id: id)
            #expect(decoded.id == made.id)
            #expect(decoded.title == made.title)
            #expect(decoded.body == made.body)
            #expect(decoded.author == made.author)
            #expect(decoded.tags == made.tags)
            #expect(decoded.score == made.score)
            #expect(abs(decoded.createdAt.timeIntervalSince(made.createdAt)) < 0.001)
        }
    }

    @Test func itemsAreDeterministicAndShapedLikeRealPosts() throws {
        #expect(FixtureItem.json(id: 7) == FixtureItem.json(id: 7))
        #expect(FixtureItem.json(id: 7) != FixtureItem.json(id: 8))
        let item = FixtureItem.make(id: 12)
        #expect((30...40).contains(item.title.count))
        #expect((250...350).contains(item.body.count))
        #expect(item.tags.count == 3)
        #expect(FixtureItem.json(id: 12).contains(#""created_at":"2024-01-01T07:24:00.012Z""#))
        #expect(item.itemKey == .integer(12))
    }

    @Test func anOverriddenTitleIsEscaped() throws {
        let text = FixtureItem.json(id: 3, title: "A \"quoted\"\ntitle\\")
        #expect(try JsonProvider.decode(FixtureItem.self, from: text).title == "A \"quoted\"\ntitle\\")
    }
}
