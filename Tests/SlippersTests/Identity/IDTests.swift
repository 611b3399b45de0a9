import Foundation
import Slippers
import Testing

private struct Author: Codable, Identifiable, CacheIdentifiable, Equatable {
    let id: ID<Author>
    let name: String
}

private struct BlogPost: Codable, Identifiable, CacheIdentifiable, Equatable {
    let id: ID<BlogPost>
    let authorId: ID<Author>
}

private struct Holder: Codable { let id: ID<BlogPost> }

@Suite struct IDTests {
    @Test func decodesFromABareJSONNumber() throws {
        let holder = try JsonProvider.decode(Holder.self, from: #"{"id": 42}"#)
        #expect(holder.id == ID<BlogPost>(42))
        #expect(holder.id.rawValue == 42)
    }

    @Test func encodesAsABareJSONNumber() throws {
        let text = String(decoding: try JsonProvider.encode(Holder(id: 42)), as: UTF8.self)
        #expect(text == #"{"id":42}"#)
    }

    @Test func roundTripsInsideAModel() throws {
        let post = BlogPost(id: 7, authorId: 3)
        let data = try JsonProvider.encode(post)
        #expect(String(decoding: data, as: UTF8.self) == #"{"author_id":3,"id":7}"#)
        #expect(try JsonProvider.decode(BlogPost.self, from: data) == post)
    }

    @Test(arguments: [
        (#"{"id": "109384029384756"}"#, "109384029384756"),
        (#"{"id": "3f2c9a1e-7b4d-4c1a-9e0f-2b8d6a5c4e31"}"#, "3f2c9a1e-7b4d-4c1a-9e0f-2b8d6a5c4e31"),
        (#"{"id": "@ann:example.org"}"#, "@ann:example.org"), (#"{"id": "42"}"#, "42"),
    ])
    func decodesFromABareJSONStringAndEncodesBackAsOne(json: String, value: String) throws {
        let holder = try JsonProvider.decode(Holder.self, from: json)
        #expect(holder.id == ID<BlogPost>(value))
        #expect(holder.id.stringValue == value)
        #expect(holder.id.intValue == nil)
        #expect(holder.id.itemKey == .string(value))
        let text = String(decoding: try JsonProvider.encode(holder), as: UTF8.self)
        #expect(try JsonProvider.decode(Holder.self, from: text).id == holder.id)
        #expect(text.contains("\"\(value)\""))
    }

    @Test func aNumberAndAStringAreDifferentIDs() {
        #expect(ID<Author>(42) != ID<Author>("42"))
        #expect(ID<Author>(42).itemKey == .integer(42))
        #expect(ID<Author>("42").itemKey == .string("42"))
        let literal: ID<Author> = "109384029384756"
        #expect(literal == ID<Author>("109384029384756"))
    }

    @Test(arguments: [#"{"id": 4.5}"#, #"{"id": null}"#, #"{"id": 1e40}"#, #"{"id": true}"#, #"{"id": [1]}"#])
    func rejectsValuesThatAreNeitherIntegersNorStringsWithADecodingError(json: String) {
        #expect(throws: DecodingError.self) { try JsonProvider.decode(Holder.self, from: json) }
    }

    @Test func isHashableComparableAndALiteral() {
        let ids: Set<ID<Author>> = [1, 2, 2, 3]
        #expect(ids.count == 3)
        #expect(ID<Author>(1) < ID<Author>(2))
        #expect([ID<Author>(3), 1, 2].sorted() == [1, 2, 3])
    }

    @Test func convertsToAndFromText() {
        #expect(ID<Author>(42).description == "42")
        #expect("\(ID<Author>(-7))" == "-7")
        #expect(ID<Author>("4x2").description == "4x2")
        #expect(ID<Author>(7).intValue == 7)
    }

    @Test func typedIDsGiveTheirCacheKey() {
        #expect(Author(id: 5, name: "Ann").itemKey == .integer(5))
        #expect(ID<Author>(9).itemKey == .integer(9))
    }

    @Test func differentSubjectsAreDifferentTypes() {
        // `let wrong: ID<BlogPost> = ID<Author>(1)` does not compile; the types differ.
        #expect(ID<Author>.self != ID<BlogPost>.self)
        #expect(!(ID<Author>(1) as Any is ID<BlogPost>))
    }

    @Test func aDictionaryKeyedByIDsIsAJSONObject() throws {
        struct Post {}
        let counts: [ID<Post>: Int] = [1: 10, 42: 3]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(counts), as: UTF8.self)
        #expect(json == #"{"1":10,"42":3}"#)
        #expect(try JSONDecoder().decode([ID<Post>: Int].self, from: Data(json.utf8)) == counts)
        let named = try JSONDecoder().decode([ID<Post>: Int].self, from: Data(#"{"x":1}"#.utf8))
        #expect(named == [ID<Post>("x"): 1])
    }
}
