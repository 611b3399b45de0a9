/// xxHash64 (XXH64) of a buffer: a fast non-cryptographic 64-bit hash that reads eight bytes at a
/// time, where FNV-1a multiplies once a byte.
///
/// It is the published algorithm (xxHash by Yann Collet, `XXH64`, little-endian reads), so its
/// values are those of any other implementation: `XXH64.hash(of: "abc".utf8, seed: 0)` is
/// `0x44BC2CF5AD770999`. Like ``FNV1a`` it detects change, it does not resist an adversary.
package enum XXH64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The hash of `bytes` with `seed`.
    package static func hash(of bytes: some Sequence<UInt8>, seed: UInt64) -> UInt64 {
        if let hash = bytes.withContiguousStorageIfAvailable({ hash(of: UnsafeRawBufferPointer($0), seed: seed) }) {
            return hash
        }
        return Array(bytes).withUnsafeBytes { hash(of: $0, seed: seed) }
    }

    /// The hash of the bytes of `buffer` with `seed`.
    package static func hash(of buffer: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let count = buffer.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var lanes = (seed &+ prime1 &+ prime2, seed &+ prime2, seed, seed &- prime1)
            while offset + 32 <= count {
                lanes.0 = round(lanes.0, word(buffer, offset))
                lanes.1 = round(lanes.1, word(buffer, offset + 8))
                lanes.2 = round(lanes.2, word(buffer, offset + 16))
                lanes.3 = round(lanes.3, word(buffer, offset + 24))
                offset += 32
            }
            hash =
                rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
            hash = merge(hash, lanes.0)
            hash = merge(hash, lanes.1)
            hash = merge(hash, lanes.2)
            hash = merge(hash, lanes.3)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash ^= round(0, word(buffer, offset))
            hash = rotate(hash, 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let half = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            hash ^= UInt64(half) &* prime1
            hash = rotate(hash, 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash ^= UInt64(buffer[offset]) &* prime5
            hash = rotate(hash, 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    private static func word(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }
}
