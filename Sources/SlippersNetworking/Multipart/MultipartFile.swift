import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A file to send as a part of a multipart/form-data body: its name, content type and bytes.
///
/// Declare a property of this type in an `Encodable` form and
/// ``MultipartFormEncoder`` sends it as a file part. A file on disk is copied
/// into the body in chunks, never read whole into memory.
///
/// For example:
///
/// ```swift
/// struct Upload: Encodable {
///     var title: String
///     var photo: MultipartFile
/// }
/// let form = try MultipartFormEncoder().encode(
///     Upload(title: "Cat", photo: MultipartFile(fileURL: photoURL, contentType: "image/jpeg")))
/// ```
public struct MultipartFile: Encodable, Sendable, Equatable {
    /// The file name sent in the part's `Content-Disposition`.
    public var filename: String
    /// The part's `Content-Type`, such as `image/png`.
    public var contentType: String
    /// Where the bytes come from.
    public var source: Source

    /// Where a file part's bytes come from.
    public enum Source: Sendable, Equatable {
        /// Bytes in memory.
        case data(Data)
        /// A file on disk, read in chunks as the body is written.
        case file(URL)
    }

    /// Creates a file part from bytes in memory.
    public init(filename: String, contentType: String = "application/octet-stream", data: Data) {
        self.filename = filename
        self.contentType = contentType
        self.source = .data(data)
    }

    /// Creates a file part from a file on disk, named after the file unless told otherwise.
    public init(fileURL: URL, filename: String? = nil, contentType: String = "application/octet-stream") {
        self.filename = filename ?? fileURL.lastPathComponent
        self.contentType = contentType
        self.source = .file(fileURL)
    }

    /// Encodes the file name, for encoders other than ``MultipartFormEncoder``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(filename)
    }
}
