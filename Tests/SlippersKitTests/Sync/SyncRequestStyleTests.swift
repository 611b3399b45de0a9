import Foundation
import SlippersKit
import Testing

/// A queued request's style made the overrides a plan takes, as `sync`'s options make them.
@Suite struct SyncRequestStyleTests {
    @Test func aGetListsStyleGivesTheNamedWayOfAskingAndItsShape() {
        var style = SyncRequest.Style()
        style.name = "offset"
        style.itemsPath = "data.items"
        style.pageSize = 100
        style.pageSizeParameter = "size"
        style.nextCursorPath = "meta.next"
        style.totalPath = "meta.total"
        let overrides = StyleOverrides(style)
        #expect(
            overrides
                == StyleOverrides(
                    style: .offset(), itemsPath: "data.items", pageSize: 100, pageSizeParameter: "size",
                    cursorPath: "meta.next", totalPath: "meta.total"))
        #expect(StyleOverrides(SyncRequest.Style()).isEmpty)
    }

    @Test func everyNameOfSyncsStyleOptionIsAStyleAndNoOtherIs() {
        for name in [
            "pageNumber", "offset", "cursor", "nextURL", "linkHeader", "afterLastItem", "range", "singlePage",
        ] {
            #expect(PaginationStyle.named(name) != nil, "\(name)")
        }
        // A style is named by its kind's case name, and by nothing else.
        for name in ["pages", "page", "next", "link", "after", "none"] { #expect(PaginationStyle.named(name) == nil) }
        var unknown = SyncRequest.Style()
        unknown.name = "pages"
        #expect(StyleOverrides(unknown).style == nil)
    }

    @Test func aGraphQLListsStyleIsPostedWithTheDefaultPageSizeUnlessTheVariablesGiveOne() {
        var style = SyncRequest.Style()
        style.graphQL = "query($first: Int, $after: String) { posts(first: $first, after: $after) { id } }"
        style.connection = "posts"
        style.itemsPath = "ignored"
        let overrides = StyleOverrides(style)
        #expect(
            overrides.style
                == .graphQL(query: style.graphQL ?? "", connectionPath: "posts", pageSize: 50, idField: "id"))
        #expect(overrides.itemsPath == nil)
        style.variables = #"{"first": 20}"#
        #expect(
            StyleOverrides(style).style
                == .graphQL(
                    query: style.graphQL ?? "", variables: #"{"first": 20}"#, connectionPath: "posts", pageSize: nil,
                    idField: "id"))
    }

    @Test func aBodyCursorListsStyleIsPostedWithItsCursorPaths() {
        var style = SyncRequest.Style()
        style.postBody = #"{"query": "x"}"#
        style.cursorPath = "start_cursor"
        style.nextCursorFromItem = "sort"
        #expect(
            StyleOverrides(style).style
                == .bodyCursor(
                    body: #"{"query": "x"}"#, cursorPath: "start_cursor", nextCursor: .lastItem(keyPath: "sort"),
                    itemsKeyPath: "results", idField: "id"))
        #expect(StyleOverrides(style).cursorPath == nil)
    }
}
