import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Testing

/// What a first response shows by its structure alone, whatever its members are named: the items
/// beside arrays of links, a key that is no id, a total under a name of its own, a continuation at
/// a member named for where the page ends, and an end shown by a page without its items member.
@Suite struct PaginationStyleStructureDetectionTests {
    private func explain(_ url: String, _ body: String) -> PaginationStyle.Detection {
        PaginationStyle.explain(url: URL(string: url)!, body: Data(body.utf8), headers: [:])
    }

    @Test func itemsBesideArraysOfRelUriLinksAreTheItemsAndTheNextLinkIsFollowed() {
        let detection = explain(
            "https://wf.test/workflows?@page_size=2",
            #"{"data": {"collection": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "@links": {"#
                + #""self": [{"rel": "self", "uri": "/workflows?@page_index=0&@page_size=2"}],"#
                + #""next": [{"rel": "next", "uri": "/workflows?@page_index=1&@page_size=2"}]}}}"#)
        #expect(detection.style.itemsKeyPath == "data.collection")
        #expect(detection.style.kind == .nextURL(keyPath: "data.@links.next"))
        #expect(detection.style.advancing?.parameter == "@page_index")
        #expect(detection.confidence == .high)
    }

    @Test func theItemsAreTheArrayWhoseObjectsDifferByAMemberNotOneOfLinks() {
        let detection = explain(
            "https://api.test/things",
            #"{"envelope": {"links": [{"rel": "self", "href": "/things"}], "groups": [{"kind": "x"}, {"kind": "x"}],"#
                + #""things": [{"code": "a1"}, {"code": "b2"}]}}"#)
        #expect(detection.style.itemsKeyPath == "envelope.things")
        #expect(detection.style.idField == "code")
    }

    @Test(arguments: [
        // A name with no space beats a display name; a URL beats both; an integer beats a phrase.
        (#"[{"displayname": "Ann B", "name": "@ann:x.org"}, {"displayname": "Bo C", "name": "@bo:x.org"}]"#, "name"),
        (#"[{"name": "a", "self_link": "http://x/l/a"}, {"name": "b", "self_link": "http://x/l/b"}]"#, "self_link"),
        (#"[{"title": "A b", "number": 7}, {"title": "C d", "number": 8}]"#, "number"),
        // A member that repeats on the page, or is missing from an item, keys nothing.
        (#"[{"kind": "user", "login": "ann"}, {"kind": "user", "login": "bo"}]"#, "login"),
        (#"[{"slug": "a", "handle": "x"}, {"handle": "y"}]"#, "handle"),
    ])
    func itemsWithoutAnIdAreKeyedByTheirBestDistinctMember(items: String, field: String) {
        let detection = explain("https://api.test/users", #"{"users": \#(items), "total": 99}"#)
        #expect(detection.style.idField == field, "\(detection.reasons)")
    }

    @Test func aTotalUnderANameOfItsOwnIsTheTotalAndAPageCountIsNot() {
        let mailman = explain(
            "https://lists.test/3.1/lists", #"{"start": 0, "total_size": 123, "entries": [{"list_id": "a"}]}"#)
        #expect(mailman.style.totalKeyPath == "total_size")
        let pages = explain("https://api.test/x", #"{"total_pages": 9, "result_count": 200, "items": [{"id": 1}]}"#)
        #expect(pages.style.totalKeyPath == "result_count")
    }

    @Test(arguments: ["end", "next_batch", "resumeToken", "marker"])
    func anOpaqueStringAtAMemberNamedForWhereThePageEndsIsACursorTriedUnderTheVocabulary(member: String) {
        let detection = explain(
            "https://chat.test/rooms/1/messages?limit=10",
            #"{"chunk": [{"event_id": "$1"}, {"event_id": "$2"}], "start": "t0", "\#(member)": "t10-3_0"}"#)
        guard case .cursor(let parameter, let keyPath) = detection.style.kind else {
            Issue.record("not a cursor: \(detection.style.kind)")
            return
        }
        #expect(keyPath == member)
        #expect(parameter == "cursor")
        let tried = detection.alternatives.compactMap { style -> String? in
            if case .cursor(let parameter, _) = style.kind { return parameter }
            return nil
        }
        // The member's own name, then the vocabulary: six ways in all.
        #expect(tried == [member, "from", "after", "since", "token"])
        #expect(detection.style.idField == "event_id")
    }

    @Test(arguments: ["ending", "friend", "tokens_used"])
    func aMemberThatOnlyContainsAContinuationWordIsNone(member: String) {
        let detection = explain("https://api.test/x", #"{"items": [{"id": 1}, {"id": 2}], "\#(member)": "abc"}"#)
        if case .cursor = detection.style.kind { Issue.record("\(member) taken for a cursor") }
    }

    @Test func aPagePastTheTotalWithoutItsItemsMemberIsAnEmptyLastPage() async throws {
        try await withFixtureServer(.init(itemCount: 23, pageSize: 10)) { server async throws in
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(.missingArrayEnd),
                style: PaginationStyle(
                    kind: .pageNumber(parameter: "page", firstPage: 1), itemsKeyPath: "entries",
                    pageSizeParameter: "count", totalKeyPath: "total_size"))
            let past = try #require(try await source.fetch(PageRequest(token: PageToken(4))).page)
            #expect(past.items.isEmpty)
            #expect(past.nextToken == nil)
            // Without the total to agree, a page without its items is an error, as a wrong path is.
            var untotalled = source
            untotalled.style.totalKeyPath = nil
            await #expect(throws: NetworkError.self) { try await untotalled.fetch(PageRequest(token: PageToken(4))) }
        }
    }

    @Test func aPageWithItsItemsElsewhereIsNoEnd() async throws {
        try await withFixtureServer(.init(itemCount: 23, pageSize: 10)) { server async throws in
            let source = HTTPPageSource(
                client: client(for: server), url: server.url(.missingArrayEnd),
                style: PaginationStyle(
                    kind: .pageNumber(parameter: "page", firstPage: 1), itemsKeyPath: "results",
                    pageSizeParameter: "count", totalKeyPath: "total_size"))
            await #expect(throws: NetworkError.self) { try await source.fetch(PageRequest(token: PageToken(2))) }
        }
    }
}

extension PaginationStyleStructureDetectionTests {
    @Test func aParameterOfTheURLWhoseValueIsOfTheCursorsMakeIsTriedFirst() {
        let detection = explain(
            "https://chat.test/messages?pos=s0&dir=f&limit=10",
            #"{"chunk": [{"event_id": "$1"}, {"event_id": "$2"}], "end": "s10"}"#)
        let tried = detection.alternatives.compactMap { style -> String? in
            if case .cursor(let parameter, _) = style.kind { return parameter }
            return nil
        }
        #expect(tried.first == "pos", "\(tried)")
        #expect(!tried.contains("dir"))
        #expect(!tried.contains("limit"))
    }
}
