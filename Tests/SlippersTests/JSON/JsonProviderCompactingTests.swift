import Foundation
import Slippers
import Testing

@Suite struct JsonProviderCompactingTests {
    private func compacted(_ text: String) -> String {
        String(decoding: JsonProvider.compacted(Data(text.utf8)), as: UTF8.self)
    }

    @Test func aPrettyPrintedObjectBecomesOneLine() {
        let pretty = "{\n  \"id\" : 1,\r\n\t\"tags\" : [\n    \"a\",\n    \"b\"\n  ]\n}"
        #expect(compacted(pretty) == #"{"id":1,"tags":["a","b"]}"#)
    }

    @Test func whitespaceInsideStringsStays() {
        #expect(
            compacted(#"{ "title" : "a  b\n\"c d\" \\" , "x" : "\\\" }" }"#)
                == #"{"title":"a  b\n\"c d\" \\","x":"\\\" }"}"#)
    }

    @Test func compactTextIsReturnedAsItIs() {
        let compact = Data(#"{"id":1,"title":"é"}"#.utf8)
        #expect(JsonProvider.compacted(compact) == compact)
    }
}
