/// The HTTP validators of a fetched page, used to ask the server whether it changed.
///
/// When a page is fetched again with its validators, a server may answer
/// `304 Not Modified` instead of sending the page again.
public struct PageValidators: Hashable, Sendable, Codable {
    /// The `ETag` header of the response, verbatim (quotes and `W/` included).
    public var etag: String?
    /// The `Last-Modified` header of the response, verbatim.
    public var lastModified: String?

    /// Creates validators; both are optional.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is nothing to validate with.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
