import Foundation
import SlippersKit
import SlippersNetworking
import SlippersStore

extension CacheStorage {
    /// The key of the collection a person means by `typed`, as ``SlippersStore/CacheStorage/collectionKey(typed:)``
    /// finds it, or else the collection `sync` filed the list at the URL `typed` under: its key
    /// leaves out the paging parameters of the list's style (`…/items?size=50` is filed as
    /// `…/items` when `size` sets its page size), so the URL given to `sync` finds its list.
    ///
    /// - returns: The key found, or `typed` as ``SlippersStore/CacheStorage/collectionKey(typed:)`` gives it.
    func collectionKey(naming typed: String) async throws -> String {
        let key = try await collectionKey(typed: typed)
        guard try await collection(key) == nil, let url = URL(string: typed),
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            let configuration = ServerConfiguration(baseURL: url)
        else { return key }
        // The client only names the list's collection; it sends nothing.
        let client = HTTPClient(
            configuration: configuration,
            options: HTTPClient.Options(transport: StubTransport(StubResponse(statusCode: 404))))
        return try await httpCollections(for: url, client: client).first?.collection.key ?? key
    }
}
