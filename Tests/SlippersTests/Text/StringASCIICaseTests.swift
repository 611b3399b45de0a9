import Testing

@testable import Slippers

@Suite struct StringASCIICaseTests {
    @Test func headerNamesCompareWithoutRegardToTheCaseOfTheirLetters() {
        #expect("Content-Type".equalsIgnoringASCIICase("content-type"))
        #expect("X-RATELIMIT-REMAINING".equalsIgnoringASCIICase("x-RateLimit-Remaining"))
        #expect("".equalsIgnoringASCIICase(""))
        #expect(!"Link".equalsIgnoringASCIICase("Links"))
        #expect(!"Links".equalsIgnoringASCIICase("Link"))
        #expect(!"ETag".equalsIgnoringASCIICase("E-Tag"))
    }

    @Test func onlyLettersFold() {
        // Pairs of bytes 32 apart that are not letters stay distinct.
        #expect(!"a_b".equalsIgnoringASCIICase("a\u{7F}b"))
        #expect(!"@".equalsIgnoringASCIICase("`"))
        #expect(!"[".equalsIgnoringASCIICase("{"))
        #expect(!"1".equalsIgnoringASCIICase("\u{11}"))
        // Other bytes compare as they are: no Unicode case folding.
        #expect("é".equalsIgnoringASCIICase("é"))
        #expect(!"é".equalsIgnoringASCIICase("É"))
    }
}
