/// The operations measured on every baseline, each the counterpart of one of our figures.
enum BaselineOperation: String, CaseIterable, Sendable {
    /// Read a cached page and decode it into typed items.
    case readPage
    /// Store a page of typed items (encode and write).
    case persistPage
    /// Store a page as it came from the network: decode the server's response, then store its items.
    case persistFetchedPage
    /// Replace one item of a cached page.
    case updateItem

    /// The words used in figure names, e.g. `"read page as typed items"`.
    var name: String {
        switch self {
        case .readPage: "read page as typed items"
        case .persistPage: "persist page of typed items"
        case .persistFetchedPage: "persist fetched page (decode response, persist)"
        case .updateItem: "update one item"
        }
    }
}
