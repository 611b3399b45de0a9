import Slippers

/// A page as a paginated API sends it: the items under `results`, with the total and the next page's URL.
///
/// This is the body a user's code receives from the network, so persisting a
/// fetched page starts from its bytes.
struct ServerResponse: Codable, Sendable {
    var count: Int
    var next: String?
    var results: [BenchItem]
}
