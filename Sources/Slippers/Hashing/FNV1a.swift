/// A 64-bit FNV-1a hash, fed byte by byte: the same value in every process and on every platform.
///
/// For fingerprints that must not change between runs (Swift's `Hasher` is seeded
/// per process): a page's digest, a style's fingerprint, a `Vary` key, an ETag. It
/// tells changed bytes apart; it is no defence against an adversary.
///
/// For example:
///
/// ```swift
/// var hash = FNV1a()
/// hash.combine("GET /posts".utf8)
/// hash.combine(0)
/// let text = hash.hex    // 16 lower-case hex digits, zero-padded
/// ```
package struct FNV1a: Sendable {
    /// The hash of the bytes combined so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A hash of nothing yet.
    package init() {}

    /// Mixes one byte in.
    package mutating func combine(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x100_0000_01b3
    }

    /// Mixes bytes in, in order; contiguous bytes (`Data`, arrays, most strings' UTF-8) through
    /// their buffer, without an iterator per byte.
    package mutating func combine(_ bytes: some Sequence<UInt8>) {
        var value = self.value
        let viaBuffer: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        guard viaBuffer == nil else {
            self.value = value
            return
        }
        for byte in bytes { combine(byte) }
    }

    /// The hash in hex, without leading zeros.
    package var shortHex: String { String(value, radix: 16) }

    /// The hash in hex, 16 digits with leading zeros.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> FNV1a {
        var hash = FNV1a()
        hash.combine(bytes)
        return hash
    }
}
