import Slippers
import Testing

@Suite struct JSONStringContentTests {
    private func text(_ content: String) -> String? {
        Array(content.utf8).withUnsafeBufferPointer(JSONStringContent.text)
    }

    @Test func plainContentIsItsOwnText() {
        #expect(text("naïve café") == "naïve café")
        #expect(text("") == "")
    }

    @Test func escapesAreResolved() {
        #expect(text(#"a\"b\\c\/d\n\t\r\b\f"#) == "a\"b\\c/d\n\t\r\u{8}\u{C}")
        #expect(text(#"\u00e9\ud83d\ude00"#) == "é😀")
    }

    @Test func aLoneSurrogateOrBadDigitsHaveNoText() {
        #expect(text(#"\ud800"#) == nil)
        #expect(text(#"\udc00"#) == nil)
        #expect(text(#"\u12"#) == nil)
        #expect(text(#"\uzzzz"#) == nil)
    }
}
