import Foundation
import Testing

@testable import SlippersCLI

@Suite struct FormattingTests {
    @Test func bytesUseBinaryUnits() {
        #expect(Formatting.bytes(512) == "512 B")
        #expect(Formatting.bytes(1536) == "1.5 KiB")
        #expect(Formatting.bytes(12 * 1024 * 1024) == "12.0 MiB")
    }

    @Test func agesUseTheLargestWholeUnit() {
        #expect(Formatting.age(42) == "42s")
        #expect(Formatting.age(300) == "5m")
        #expect(Formatting.age(3 * 3600 + 5) == "3h")
        #expect(Formatting.age(2 * 86_400) == "2d")
        #expect(Formatting.age(-5) == "0s")
        #expect(Formatting.age(of: nil) == "-")
    }
}
