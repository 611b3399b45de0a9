import Foundation
import Slippers
import Testing

/// XXH64 gives the published algorithm's values, whatever the length's remainder after its 32-byte stripes.
@Suite struct XXH64Tests {
    /// Values of the reference implementation (the `xxhash` Python package, 3.x).
    @Test(arguments: [
        ([UInt8](), UInt64(0), UInt64(0xEF46_DB37_51D8_E999)),
        ([UInt8](), 1, 0xD5AF_BA13_36A3_BE4B),
        (Array("a".utf8), 0, 0xD24E_C4F1_A98C_6E5B),
        (Array("abc".utf8), 0, 0x44BC_2CF5_AD77_0999),
        (Array("abc".utf8), 1, 0xBEA9_CA81_9932_8908),
        (Array("0123456789abcdef0123456789abcdef".utf8), 0, 0x642A_9495_8E71_E6C5),
        (Array("0123456789abcdef0123456789abcdef0123456789ABCDEFG".utf8), 0, 0xDD42_7AB1_E80B_BD12),
        (Array("0123456789abcdef0123456789abcdef0123456789ABCDEFG".utf8), 1, 0xC7B4_A289_5971_C191),
        ((0..<768).map { UInt8($0 % 256) }, 0, 0x8E03_C838_C596_036F),
        ((0..<768).map { UInt8($0 % 256) }, 1, 0xA802_5737_4B99_ADE3),
    ])
    func hashesAsTheReferenceDoes(bytes: [UInt8], seed: UInt64, expected: UInt64) {
        #expect(XXH64.hash(of: bytes, seed: seed) == expected)
        // The same through a buffer, and through bytes that are not contiguous.
        #expect(bytes.withUnsafeBytes { XXH64.hash(of: $0, seed: seed) } == expected)
        #expect(XXH64.hash(of: bytes.lazy.map { $0 }, seed: seed) == expected)
    }
}
