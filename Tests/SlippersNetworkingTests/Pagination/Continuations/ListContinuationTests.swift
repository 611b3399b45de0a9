import Foundation
import Testing

@testable import SlippersNetworking

/// The ways a list continues, as one registry: every case of `PaginationStyle.Kind` is one way,
/// named once, found by its name, and detected by rules of distinct ranks.
@Suite struct ListContinuationTests {
    /// One style of each case.
    static let everyKind: [PaginationStyle.Kind] = [
        .pageNumber(parameter: "page", firstPage: 1), .offset(parameter: "offset"),
        .cursor(parameter: "cursor", keyPath: "next_cursor"), .nextURL(keyPath: "next"), .linkHeader,
        .afterLastItem(parameter: "starting_after"), .singlePage,
        .graphQL(
            PaginationStyle.GraphQLConnection(query: "{ posts { edges { node { id } } } }", connectionPath: "posts")),
        .bodyCursor(
            PaginationStyle.BodyCursor(body: "{}", cursorPath: "cursor", nextCursor: .response(keyPath: "next"))),
        .range(unit: "items"), .headerCursor(header: "X-Next-Cursor", parameter: "cursor"),
    ]

    @Test func everyCaseIsOneWayOfTheRegistryWithANameOfItsOwn() {
        let names = PaginationStyle.Kind.continuations.map { $0.name }
        #expect(Set(names).count == names.count)
        #expect(names.count == Self.everyKind.count)
        for kind in Self.everyKind {
            let way = type(of: kind.continuation)
            #expect(names.contains(way.name), "\(kind)")
            #expect(PaginationStyle(kind: kind).styleName == way.name)
        }
    }

    @Test func aNameSyncStyleTakesForcesItsWaysTemplateAndThePostedWaysHaveNone() throws {
        #expect(
            PaginationStyle.styleNames == [
                "pageNumber", "offset", "cursor", "nextURL", "linkHeader", "afterLastItem", "range", "singlePage",
                "headerCursor",
            ])
        for name in PaginationStyle.styleNames {
            let style = try #require(PaginationStyle.named(name))
            #expect(style.styleName == name)
            #expect(!style.isPosted)
        }
        #expect(PaginationStyle.named("graphql") == nil)
        #expect(PaginationStyle.named("post-body") == nil)
        #expect(PaginationStyle(kind: Self.everyKind[7]).styleName == "graphql")
        #expect(PaginationStyle(kind: Self.everyKind[8]).styleName == "post-body")
    }

    @Test func detectionRulesHaveDistinctRanksAndPageNumbersComeLast() {
        let ranks = DetectionRule.ranked.map(\.rank)
        #expect(Set(ranks).count == ranks.count)
        #expect(ranks == ranks.sorted())
        #expect(ranks.last == 1_000)
    }

    @Test func theWaysAFirstResponseNamesOutrightRankBeforeTheWaysInferredFromNames() {
        // A body with a next URL and a cursor member: the next URL, given by the server, wins.
        let body = Data(#"{"results": [{"id": 1}], "next": "https://api.example.com/p?page=2", "cursor": "c2"}"#.utf8)
        let url = URL(string: "https://api.example.com/p")!
        #expect(PaginationStyle.explain(url: url, body: body, headers: [:]).style.styleName == "nextURL")
        // A Link header beats both.
        let linked = PaginationStyle.explain(
            url: url, body: body, headers: ["Link": #"<https://api.example.com/p?page=2>; rel="next""#])
        #expect(linked.style.styleName == "linkHeader")
    }

    @Test func whatAWayDoesNotOverrideIsOnePageAfterAnotherWithNoPageNamedAhead() {
        let style = PaginationStyle.cursor()
        #expect(!style.isAddressable)
        #expect(style.asksByInference)
        #expect(!style.readsPagesByNumber)
        #expect(PaginationStyle.pageNumber().readsPagesByNumber)
        #expect(PaginationStyle.singlePage().sendsPageSize == false)
        #expect(PaginationStyle.linkHeader().asksByInference == false)
    }

    @Test func theOptionsThatPinAStyleAreItsWaysThenItsShape() {
        var style = PaginationStyle.offset(parameter: "skip", limit: 25, itemsKeyPath: "rows", totalKeyPath: "n")
        style.idField = "key"
        let options = style.commandLineOptions.map { "\($0.name) \($0.value)" }
        #expect(
            options == [
                "--style offset", "--page-param skip", "--page-size-param limit", "--page-size 25", "--items-path rows",
                "--id-field key", "--total-path n",
            ])
        #expect(PaginationStyle(kind: Self.everyKind[7]).commandLineOptions.isEmpty)
    }
}
