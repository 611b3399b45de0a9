import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A multipart/form-data body: text fields and file parts, with their boundary.
///
/// Write it to a file with ``write(to:)`` (file parts are copied in chunks,
/// so a large file never sits whole in memory) and send that file as an
/// ``Endpoint/Body/file(_:)`` body, or get it in memory with ``data()`` when
/// it is small. ``Endpoint/withMultipartBody(_:)`` does the first.
public struct MultipartFormData: Sendable, Equatable {
    /// One part of the body.
    public enum Part: Sendable, Equatable {
        /// A text field.
        case text(name: String, value: String)
        /// A file.
        case file(name: String, file: MultipartFile)
    }

    /// The parts, in order.
    public var parts: [Part]
    /// The boundary between parts.
    public var boundary: String

    /// The bytes copied at a time from a file part.
    public static let chunkSize = 64 * 1024

    /// Creates a body from parts, with a random boundary unless one is given.
    public init(parts: [Part] = [], boundary: String = "slippers-" + UUID().uuidString) {
        self.parts = parts
        self.boundary = boundary
    }

    /// The `Content-Type` header value, boundary included.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The whole body in memory, file parts read in.
    ///
    /// - throws: The error of reading a file part.
    public func data() throws -> Data {
        var data = Data()
        try write { data.append($0) }
        return data
    }

    /// Writes the body to a file, copying file parts in chunks of ``chunkSize`` bytes.
    ///
    /// - throws: The error of creating the file or reading a file part.
    public func write(to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        try write { try output.write(contentsOf: $0) }
    }

    /// Hands the body to `sink` piece by piece, file parts in chunks of at most ``chunkSize`` bytes.
    ///
    /// - throws: What `sink` throws, or the error of reading a file part.
    public func write(_ sink: (Data) throws -> Void) throws {
        for part in parts {
            var head = "--\(boundary)\r\n"
            switch part {
            case .text(let name, let value):
                head += "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"\r\n\r\n"
                try sink(Data(head.utf8))
                try sink(Data(value.utf8))
            case .file(let name, let file):
                head += "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; "
                head += "filename=\"\(Self.quoted(file.filename))\"\r\n"
                head += "Content-Type: \(file.contentType)\r\n\r\n"
                try sink(Data(head.utf8))
                switch file.source {
                case .data(let data):
                    try sink(data)
                case .file(let url):
                    let input = try FileHandle(forReadingFrom: url)
                    defer { try? input.close() }
                    while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
                        try sink(chunk)
                    }
                }
            }
            try sink(Data("\r\n".utf8))
        }
        try sink(Data("--\(boundary)--\r\n".utf8))
    }

    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}

extension Endpoint {
    /// The same endpoint with a multipart body, written to a temporary file and streamed from it.
    ///
    /// The file is in the temporary directory; delete it once the request is sent.
    ///
    /// - throws: The error of writing the body file.
    public func withMultipartBody(_ form: MultipartFormData) throws -> Endpoint {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("slippers-\(UUID().uuidString).form")
        try form.write(to: url)
        var copy = self
        copy.body = .file(url)
        return copy.addingHeaders(["Content-Type": form.contentType])
    }
}
