import Testing

@testable import SlippersBench

@Suite struct FigureTests {
    private func figure(value: Double, baseline: Double?, target: Target) -> Figure {
        Figure(
            name: "f", unit: .microseconds, value: value, baseline: baseline.map { _ in "(c)" },
            baselineValue: baseline, target: target)
    }

    @Test func ratioIsValueOverBaselineValue() {
        #expect(figure(value: 50, baseline: 200, target: .information).ratio == 0.25)
        #expect(figure(value: 50, baseline: nil, target: .information).ratio == nil)
    }

    @Test func ratioTargetsCompareTheRatio() {
        #expect(figure(value: 100, baseline: 100, target: .ratioAtMost(1.0)).isMet == true)
        #expect(figure(value: 101, baseline: 100, target: .ratioAtMost(1.0)).isMet == false)
        #expect(figure(value: 200, baseline: 100, target: .ratioAtLeast(2)).isMet == true)
    }

    @Test func fasterByTargetsNeedTheRatioAtMostItsInverse() {
        #expect(figure(value: 10, baseline: 100, target: .fasterBy(10)).isMet == true)
        #expect(figure(value: 11, baseline: 100, target: .fasterBy(10)).isMet == false)
        #expect(figure(value: 10, baseline: 100, target: .fasterBy(10)).targetText == ">= 10x faster than (c)")
    }

    @Test func absoluteAndBooleanTargetsIgnoreTheBaseline() {
        #expect(figure(value: 49, baseline: nil, target: .valueAtMost(50)).isMet == true)
        #expect(figure(value: 51, baseline: nil, target: .valueAtMost(50)).isMet == false)
        #expect(figure(value: 1, baseline: nil, target: .holds).isMet == true)
        #expect(figure(value: 0, baseline: nil, target: .holds).isMet == false)
    }

    @Test func informationHasNoVerdict() {
        #expect(figure(value: 1, baseline: 2, target: .information).isMet == nil)
        #expect(figure(value: 1, baseline: 2, target: .information).targetText == "info")
    }

    @Test func targetTextsReadAsTheIssueWritesThem() {
        #expect(figure(value: 1, baseline: 1, target: .ratioAtMost(1)).targetText == "<= 1.0x (c)")
        #expect(figure(value: 1, baseline: 1, target: .ratioAtMost(0.3)).targetText == "<= 0.3x (c)")
        #expect(figure(value: 1, baseline: nil, target: .valueAtMost(50)).targetText == "<= 50 us")
    }
}
