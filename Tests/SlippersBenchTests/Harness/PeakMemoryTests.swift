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

        // Where the kernel allows the reset (it does on this project's machines; some
        // containers mount /proc read-only), the peak falls back once a large block is freed.
        @Test func resettingThePeakForgetsMemoryAlreadyFreed() throws {
            let size = 256 << 20
            let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
            for offset in stride(from: 0, to: size, by: 4096) {
                block.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self)
            }
            block.deallocate()
            let before = try #require(PeakMemory.peakBytes())
            #expect(before >= UInt64(size))
            guard PeakMemory.resetPeak() else { return }
            let after = try #require(PeakMemory.peakBytes())
            #expect(after < before - UInt64(size / 2))
        }
    #endif
}
