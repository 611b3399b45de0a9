import Testing

@testable import SlippersCLI

@Suite struct ProgressBarTests {
    @Test func withATotalItDrawsABarCountsTheRateAndAnETA() {
        let line = ProgressBar.line(.init(pages: 12, items: 600, total: 2_400, itemsPerSecond: 300))
        #expect(line == "[######..................] 600/2400 items  12 pages  300 items/s  ETA 6s")
    }

    @Test func withoutATotalItCountsAndShowsTheRate() {
        let line = ProgressBar.line(.init(pages: 1, items: 50, total: nil, itemsPerSecond: 49.6))
        #expect(line == "1 page  50 items  50 items/s")
    }

    @Test func aFinishedListHasAFullBarAndNoETA() {
        let line = ProgressBar.line(.init(pages: 48, items: 2_400, total: 2_400, itemsPerSecond: 1_000))
        #expect(line == "[########################] 2400/2400 items  48 pages  1000 items/s")
    }
}
