import SlippersNetworking
import Testing

@Suite struct LinkHeaderTests {
    @Test func theNextLinkIsFoundAmongSeveralInOneHeader() {
        let header = LinkHeader(
            #"<https://api.github.com/repos?page=3&per_page=100>; rel="next", <https://api.github.com/repos?page=50>; rel="last""#
        )
        #expect(header.links.count == 2)
        #expect(header.url(rel: "next") == "https://api.github.com/repos?page=3&per_page=100")
        #expect(header.url(rel: "last") == "https://api.github.com/repos?page=50")
        #expect(header.url(rel: "prev") == nil)
    }

    @Test func aNextLinkThatSaysItsPageHasNoResultsIsNotFollowed() {
        let last = LinkHeader(
            #"<https://x.test/e?cursor=0:0:1>; rel="previous"; results="true"; cursor="0:0:1", "#
                + #"<https://x.test/e?cursor=0:100:0>; rel="next"; results="false"; cursor="0:100:0""#)
        #expect(last.url(rel: "next") == nil)
        let more = LinkHeader(#"<https://x.test/e?cursor=0:100:0>; rel="next"; results="true""#)
        #expect(more.url(rel: "next") == "https://x.test/e?cursor=0:100:0")
    }

    @Test func quotedParametersMayHoldCommasAndSemicolons() {
        let header = LinkHeader(#"<https://x.test/a>; title="a, b; c"; rel="prev next", <https://x.test/b>; rel=last"#)
        #expect(header.links.first?.parameters["title"] == "a, b; c")
        #expect(header.url(rel: "next") == "https://x.test/a")
        #expect(header.url(rel: "last") == "https://x.test/b")
    }

    @Test func relationsAreCaseInsensitiveAndRelativeTargetsAreKept() {
        let header = LinkHeader(#"</items?cursor=abc>; REL="Next""#)
        #expect(header.url(rel: "next") == "/items?cursor=abc")
    }

    @Test func malformedHeadersGiveNoLinkInsteadOfCrashing() {
        #expect(LinkHeader("").links.isEmpty)
        #expect(LinkHeader("<https://x.test/a; rel=next").links.isEmpty)
        #expect(LinkHeader(#"<https://x.test/a>; rel="next"#).url(rel: "next") == "https://x.test/a")
        #expect(LinkHeader(";;,,<>").url(rel: "next") == nil)
    }
}
