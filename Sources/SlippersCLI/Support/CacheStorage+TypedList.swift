import Foundation
import SlippersKit
import SlippersNetworking
import SlippersStorage
import SlippersStore

extension CacheStorage {
    /// The key of the collection a person means by `typed`, as `CacheStorage.collectionKey(typed:)`
    /// finds it; else the collection `sync` filed the list at the URL `typed` under (its key
    /// leaves out the paging parameters of the list's style: `…/items?size=50` is filed as
    /// `…/items` when `size` sets its page size, so the URL given to `sync` finds its list); else
    /// the one collection of the item type `typed` names, in full or by its short name (`posts`
    /// for `posts@https://api.example.com`).
    ///
    /// - returns: The key found, or `typed` as `CacheStorage.collectionKey(typed:)` gives it.
    /// - throws: ``CommandFailure/ambiguousItemType(_:candidates:)`` when a type names several collections.
    func collectionKey(naming typed: String) async throws -> String {
        let key = try await collectionKey(typed: typed)
        guard try await collection(key) == nil else { return key }
        if let url = URL(string: typed), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            let configuration = ServerConfiguration(baseURL: url)
        {
            // The client only names the list's collection; it sends nothing.
            let client = APIClient(
                configuration: configuration,
                options: APIClient.Options(transport: StubTransport(StubResponse(statusCode: 404))))
            if let found = try await httpCollections(for: url, client: client).first { return found.collection.key }
        }
        let ofType = try await collections().filter { $0.itemType == typed || $0.itemType.hasPrefix(typed + "@") }
        if ofType.count > 1 {
            throw CommandFailure.ambiguousItemType(typed, candidates: ofType.map(\.key))
        }
        return ofType.first?.key ?? key
    }
}
