/// A small gzip member that inflates to a great many zero bytes, built by hand.
///
/// The deflate stream is one fixed-Huffman block: a literal zero, then
/// back-references of length 258 at distance 1, 13 bits each, so about
/// 158 bytes come out for every byte in. The CRC-32 of the zeros is computed
/// by squaring its operator, not by running over them, so that a 10 GB bomb
/// is built as fast as its 65 MB of deflate.
enum GzipBomb {
    /// A complete, valid gzip member whose content is `count` zero bytes.
    static func gzip(zeros count: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]
        bytes += deflate(zeros: count)
        bytes += littleEndian(crc32(zeros: count))
        bytes += littleEndian(UInt32(truncatingIfNeeded: count))
        return bytes
    }

    /// A raw deflate stream (RFC 1951) of `count` zero bytes.
    static func deflate(zeros count: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        var remaining = count
        if remaining > 0 {
            writer.writeCode(0x30, length: 8)  // the literal 0
            remaining -= 1
        }
        while remaining >= 258 {
            writer.writeCode(0xc5, length: 8)  // length code 285: 258 bytes
            writer.writeCode(0, length: 5)  // distance code 0: distance 1
            remaining -= 258
        }
        for _ in 0..<remaining { writer.writeCode(0x30, length: 8) }
        writer.writeCode(0, length: 7)  // end of block
        return writer.finished()
    }

    /// The CRC-32 (ISO-HDLC, as gzip uses it) of `count` zero bytes.
    static func crc32(zeros count: Int) -> UInt32 {
        // The register after a zero bit is a linear function of the one before;
        // raise the one-byte operator to the power `count` by squaring.
        var oneBit = [UInt32](repeating: 0, count: 32)
        oneBit[0] = 0xedb8_8320
        for bit in 1..<32 { oneBit[bit] = 1 << (bit - 1) }
        var zeroBytes = square(square(square(oneBit)))  // 8 zero bits
        var register: UInt32 = 0xffff_ffff
        var exponent = count
        while exponent > 0 {
            if exponent & 1 == 1 { register = apply(zeroBytes, to: register) }
            zeroBytes = square(zeroBytes)
            exponent >>= 1
        }
        return ~register
    }

    private static func apply(_ matrix: [UInt32], to vector: UInt32) -> UInt32 {
        var result: UInt32 = 0
        var vector = vector
        var column = 0
        while vector != 0 {
            if vector & 1 == 1 { result ^= matrix[column] }
            vector >>= 1
            column += 1
        }
        return result
    }

    private static func square(_ matrix: [UInt32]) -> [UInt32] {
        matrix.map { apply(matrix, to: $0) }
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// Packs bits least significant first, as deflate stores them.
    private struct BitWriter {
        private var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var filled = 0

        /// Writes `bits` bits of a value, least significant first (header fields, extra bits).
        mutating func write(_ value: UInt32, bits: Int) {
            current |= value << filled
            filled += bits
            while filled >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: current))
                current >>= 8
                filled -= 8
            }
        }

        /// Writes a Huffman code, most significant bit first.
        mutating func writeCode(_ code: UInt32, length: Int) {
            var reversed: UInt32 = 0
            for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
            write(reversed, bits: length)
        }

        mutating func finished() -> [UInt8] {
            if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: current)) }
            current = 0
            filled = 0
            return bytes
        }
    }
}
