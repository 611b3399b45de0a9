import Foundation
import SlippersKit

extension SlippersCommand.Sync {
    /// The plan of this sync: the library's, with a conflict of styles told in the command's words.
    static func plan(
        store: CacheStore, client: HTTPClient, url: URL, headers: [String: String], overrides: StyleOverrides,
        itemType: String?, refresh: Bool
    ) async throws -> SyncPlan {
        do {
            return try await SyncPlan.make(
                store: store, client: client, url: url, headers: headers, overrides: overrides, itemType: itemType,
                refresh: refresh)
        } catch SyncPlanError.styleConflict(let collection, let stored, let requested) {
            throw CommandFailure.styleConflict(
                collection: collection, stored: StyleOption(stored.kind).rawValue,
                requested: StyleOption(requested.kind).rawValue)
        }
    }
}
