import Foundation

/// Standard output for long streams: bytes gather in a buffer written out in chunks.
///
/// Memory stays bounded by the chunk size however much is written. A command
/// that streams through it writes nothing with `print`, whose own buffer
/// would interleave with these chunks.
final class ChunkedOutput {
    private let handle: FileHandle
    private let chunkSize: Int
    private var buffer = Data()

    /// An output to `handle` (standard output by default) that writes every `chunkSize` bytes.
    init(handle: FileHandle = .standardOutput, chunkSize: Int = 64 * 1024) {
        self.handle = handle
        self.chunkSize = chunkSize
        buffer.reserveCapacity(chunkSize)
    }

    /// Appends bytes, writing the buffer out when it is full.
    ///
    /// - throws: When the output cannot be written (a closed pipe, a full disk).
    func write(_ bytes: Data) throws {
        buffer.append(bytes)
        if buffer.count >= chunkSize { try flush() }
    }

    /// Appends the UTF-8 bytes of `text`.
    func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Writes out what the buffer holds.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
