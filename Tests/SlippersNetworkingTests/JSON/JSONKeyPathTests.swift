import Foundation
import SlippersNetworking
import Testing

@Suite struct JSONKeyPathTests {
    @Test func dottedPathsKeepTheirMeaning() {
        #expect(JSONKeyPath("results").keys == ["results"])
        #expect(JSONKeyPath("data.items").keys == ["data", "items"])
        #expect(JSONKeyPath("response_metadata.next_cursor").keys == ["response_metadata", "next_cursor"])
        #expect(JSONKeyPath("").keys == [])
        #expect(JSONKeyPath("a..b.").keys == ["a", "b"])
    }

    @Test func aBackslashEscapesADotOrABackslash() {
        #expect(JSONKeyPath(#"@odata\.nextLink"#).keys == ["@odata.nextLink"])
        #expect(JSONKeyPath(#"meta.@odata\.count"#).keys == ["meta", "@odata.count"])
        #expect(JSONKeyPath(#"a\\b.c"#).keys == [#"a\b"#, "c"])
        #expect(JSONKeyPath(#"trailing\"#).keys == [#"trailing\"#])
    }

    @Test func keysRoundTripThroughText() {
        for keys in [["@odata.nextLink"], ["meta", "next_cursor"], [#"odd\key"#, "a.b.c"], ["plain"]] {
            let path = JSONKeyPath(keys: keys)
            #expect(JSONKeyPath(path.text).keys == keys)
        }
        #expect(JSONKeyPath.escaping("@odata.nextLink") == #"@odata\.nextLink"#)
        #expect(JSONKeyPath.escaping("next") == "next")
    }
}
