import Foundation
import LocalAPI
import Testing

@testable import SlippersNetworking

/// A cursor in a response header, the way added as the contributor's guide says: its folder and
/// one case, and detection, the walk and the command line know it.
@Suite struct HeaderCursorsTests {
    private let url = URL(string: "https://api.example.com/events")!
    private let body = Data(#"[{"id": 1}, {"id": 2}]"#.utf8)

    @Test func anOpaqueCursorInAResponseHeaderIsDetectedWithOtherParametersToTry() {
        let detection = PaginationStyle.explain(url: url, body: body, headers: ["x-next-cursor": "c2"])
        #expect(detection.style.kind == .headerCursor(header: "X-Next-Cursor", parameter: "cursor"))
        #expect(detection.reasons.contains("a cursor in the X-Next-Cursor header, sent back as ?cursor="))
        #expect(detection.alternatives.count == HTTPPageSource.maximumProbes - 1)
        #expect(detection.style.endOfList == "no X-Next-Cursor header, an empty page")
        #expect(detection.style.styleName == "headerCursor")
    }

    @Test func aURLInSuchAHeaderIsNoCursorAndTheURLsOwnParameterIsTheOneItGoesBackAs() {
        let linked = PaginationStyle.explain(
            url: url, body: body, headers: ["X-Next-Cursor": "https://api.example.com/events?after=c2"])
        #expect(linked.style.styleName != "headerCursor")
        let named = PaginationStyle.explain(
            url: URL(string: "https://api.example.com/events?after=c0")!, body: body,
            headers: ["Continuation-Token": "c2"])
        #expect(named.style.kind == .headerCursor(header: "Continuation-Token", parameter: "after"))
        #expect(named.alternatives.isEmpty)
    }

    @Test func aListPagedByAHeaderCursorIsDetectedAndWalkedToItsEndOneRequestAPage() async throws {
        try await withFixtureServer(.init(itemCount: 95, pageSize: 20)) { server async throws in
            let found = try await HTTPPageSource.detect(
                client: client(for: server), url: server.url(.headerCursor), pageTwo: .inferred)
            #expect(found.source.style.kind == .headerCursor(header: "X-Next-Cursor", parameter: "cursor"))
            #expect(found.advanced)
            let first = try #require(found.firstPage)
            let (items, pages) = try await walk(found.source, from: first, maxPages: 10)
            #expect(integerIDs(items) == Array(1...95))
            #expect(pages.last?.nextToken == nil)
        }
    }

    @Test func aCursorNoParameterTakesBackIsLoudWithTheOneOptionThatCanDescribeTheList() {
        let failure = HTTPPageSource.ProbeFailure(
            url: "https://api.example.com/events",
            style: PaginationStyle(kind: .headerCursor(header: "X-Next-Cursor", parameter: "cursor")),
            tried: ["?cursor= from the X-Next-Cursor header brought page 1 again"])
        #expect(failure.description.contains("back under a name no option gives; --style singlePage"))
        #expect(!failure.description.contains("--cursor-path"))
    }

    @Test func syncStyleForcesTheUsualHeaderAndItsOptionsPinIt() throws {
        let style = try #require(PaginationStyle.named("headerCursor"))
        #expect(style.kind == .headerCursor(header: "X-Next-Cursor", parameter: "cursor"))
        #expect(style.commandLineOptions.first.map { "\($0.name) \($0.value)" } == "--style headerCursor")
        let other = PaginationStyle(kind: .headerCursor(header: "Next-Token", parameter: "token"))
        #expect(other.commandLineOptions.isEmpty, "no option names another header")
    }
}
