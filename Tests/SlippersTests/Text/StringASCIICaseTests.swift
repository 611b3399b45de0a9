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

    @Test func aHeaderIsFoundByItsNameInAnyCase() {
        let headers = ["Content-Type": "application/json", "x-total-count": "42"]
        #expect(headers.value(ignoringASCIICase: "Content-Type") == "application/json")
        #expect(headers.value(ignoringASCIICase: "content-type") == "application/json")
        #expect(headers.value(ignoringASCIICase: "X-Total-Count") == "42")
        #expect(headers.value(ignoringASCIICase: "X-Total") == nil)
    }
}
