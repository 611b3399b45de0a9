import Foundation
import SlippersKit
import Testing

/// A posted body compared with a listed item whose shape differs, as an insert whose answer was
/// lost is looked for.
@Suite struct JSONMembersReferencesTests {
    private func agreement(_ posted: String, _ listed: String) -> JSONMembers.Agreement? {
        JSONMembers.agreement(posted: Data(posted.utf8), listed: Data(listed.utf8)) {
            JSONMembers.isGenerated($0, idField: "id")
        }
    }

    private let listed = #"""
        {"id": 26, "title": "Made offline", "author": {"id": 7, "name": "Ada"}, "tags": [{"id": 2}, {"id": 1}],
         "price": "1.50", "published_at": "2026-01-01T09:00:00Z", "created_at": "2026-11-27T10:00:00.123Z",
         "url": "http://127.0.0.1/posts/26/", "_links": {}}
        """#

    @Test func aWriteOnlyReferenceAndItsNestedReadAreOneMember() {
        #expect(agreement(#"{"title": "Made offline", "author_id": 7}"#, listed) == .agree(["title", "author_id"]))
        #expect(agreement(#"{"title": "Made offline", "authorId": 7}"#, listed) == .agree(["title", "authorId"]))
        #expect(agreement(#"{"title": "Made offline", "authorID": 7}"#, listed) == .agree(["title", "authorID"]))
        #expect(agreement(#"{"author": 7}"#, listed) == .agree(["author"]))
        #expect(agreement(#"{"author": {"id": 7}}"#, listed) == .agree(["author"]))
        #expect(agreement(#"{"title": "Made offline", "author_id": 8}"#, listed) == .differ("author_id"))
        #expect(agreement(#"{"author": {"id": 7}}"#, #"{"author_id": 7}"#) == .agree(["author"]))
    }

    @Test func aListOfReferencesAgreesWithTheNestedObjectsInAnyOrder() {
        #expect(agreement(#"{"tag_ids": [1, 2]}"#, listed) == .agree(["tag_ids"]))
        #expect(agreement(#"{"tagIds": [2, 1]}"#, listed) == .agree(["tagIds"]))
        #expect(agreement(#"{"tag_ids": [1, 3]}"#, listed) == .differ("tag_ids"))
    }

    @Test func valuesAServerRewritesAgreeWithWhatWasPosted() {
        #expect(agreement(#"{"price": 1.5}"#, listed) == .agree(["price"]))
        #expect(agreement(#"{"published_at": "2026-01-01T10:00:00+01:00"}"#, listed) == .agree(["published_at"]))
        #expect(agreement(#"{"published_at": "2026-01-01"}"#, listed) == .agree(["published_at"]))
        #expect(agreement(#"{"published_at": "2026-01-02"}"#, listed) == .differ("published_at"))
        #expect(agreement(#"{"title": "Made Offline"}"#, listed) == .differ("title"))
    }

    @Test func membersAServerMakesAreNeverCompared() {
        let posted =
            #"{"id": -1, "created_at": "2020-01-01T00:00:00Z", "url": "x", "_links": 1, "headline": "Made offline"}"#
        #expect(agreement(posted, listed) == .nothingShared)
        #expect(agreement(#"{}"#, listed) == .nothingShared)
        for name in ["id", "uuid", "createdAt", "updated_at", "Last-Modified", "_rev", "self", "etag"] {
            #expect(JSONMembers.isGenerated(name, idField: "id"), "\(name)")
        }
        for name in ["title", "author_id", "published_at", "slug"] {
            #expect(!JSONMembers.isGenerated(name, idField: "id"), "\(name)")
        }
    }

    @Test func aReferenceListedAsANameSaysNothing() {
        // `author` shown as its name (a string) beside a posted `author_id`: neither equal nor different.
        #expect(agreement(#"{"title": "T", "author_id": 7}"#, #"{"title": "T", "author": "Ada"}"#) == .agree(["title"]))
        #expect(agreement(#"{"author_id": 7}"#, #"{"author": "Ada"}"#) == .nothingShared)
        // `paid` and `squid` are not references to `pa` and `squ`.
        #expect(agreement(#"{"paid": true}"#, #"{"pa": {"id": true}}"#) == .nothingShared)
    }

    @Test func bodiesThatAreNotObjectsAreNotCompared() {
        #expect(agreement("[1]", listed) == nil)
        #expect(agreement("{}", "nope") == nil)
    }
}
