import FlyingSocks

/// Bytes that end with an error after a prefix, so that the server closes the connection mid-body.
struct FailingByteSequence: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let prefix: [UInt8]

    struct Dropped: Error {}

    func makeAsyncIterator() -> Iterator { Iterator(remaining: prefix) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var remaining: [UInt8]

        mutating func next() async throws -> UInt8? {
            guard !remaining.isEmpty else { throw Dropped() }
            return remaining.removeFirst()
        }

        mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
            guard !remaining.isEmpty else { throw Dropped() }
            let chunk = Array(remaining.prefix(count))
            remaining.removeFirst(chunk.count)
            return chunk
        }
    }
}
