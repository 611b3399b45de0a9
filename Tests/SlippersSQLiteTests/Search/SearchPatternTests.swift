import SlippersStorage
import Testing

@Suite struct SearchPatternTests {
    @Test func wordsAreQuotedAndTheLastOneIsAPrefix() {
        #expect(SearchPattern("cafe mess").query == #""cafe" "mess"*"#)
        #expect(SearchPattern("cafe mess ").query == #""cafe" "mess""#)
    }

    @Test func quotesMakeAPhraseAndAnUnclosedOneRunsToTheEnd() {
        #expect(SearchPattern(#"pizza "new york""#).query == #""pizza" "new york""#)
        #expect(SearchPattern(#""new york"#).query == #""new york""#)
        #expect(SearchPattern(#"a"b"#).terms == ["a", "b"])
    }

    @Test func theSyntaxOfFTS5IsText() {
        #expect(SearchPattern("a OR b NOT c*").query == #""a" "OR" "b" "NOT" "c*"*"#)
        #expect(SearchPattern("NEAR(a b)").terms == ["NEAR(a", "b)"])
    }

    @Test func controlCharactersSeparateWordsAndTextWithoutTermsIsEmpty() {
        #expect(SearchPattern("a\u{0}b").terms == ["a", "b"])
        #expect(SearchPattern("  \t ").isEmpty)
        #expect(SearchPattern(#""" """#).isEmpty)
    }
}
