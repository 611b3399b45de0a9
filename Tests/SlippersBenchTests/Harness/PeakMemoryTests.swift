import Testing

@testable import SlippersBench

@Suite struct PeakMemoryTests {
    #if os(Linux)
        @Test func peakIsAtLeastTheCurrentResidentSize() throws {
            let resident = try #require(PeakMemory.residentBytes())
            let peak = try #require(PeakMemory.peakBytes())
            #expect(peak >= resident)
            #expect(resident > 1_000_000)
        }
    #endif
}
