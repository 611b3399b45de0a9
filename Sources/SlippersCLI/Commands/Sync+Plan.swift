import Foundation
import SlippersKit
import SlippersStorage

extension SlippersCommand.Sync {
    /// The plan of this sync: the library's, with a conflict of styles told in the command's words.
    static func plan(
        storage: any CacheStorage, client: APIClient, url: URL, headers: [String: String], overrides: StyleOverrides,
        itemType: String?, refresh: Bool, account: Account?
    ) async throws -> SyncPlan {
        do {
            return try await SyncPlan.make(
                storage: storage, client: client, url: url, headers: headers, overrides: overrides, itemType: itemType,
                refresh: refresh, account: account)
        } catch let error as SyncPlanError where error.code == .styleConflict {
            guard let stored = error.storedStyle, let requested = error.requestedStyle else { throw error }
            throw CommandFailure.styleConflict(
                collection: error.collection ?? "", stored: StyleOption.name(of: stored.kind),
                requested: StyleOption.name(of: requested.kind))
        }
    }
}

extension SlippersCommand.Sync {
    /// The style `--graphql` or `--post-body` gives, or `nil` for a list asked for by GET.
    ///
    /// Without `--connection`, the connection is found in the first response, which is the
    /// first page: no extra request.
    func postedStyle() throws -> PaginationStyle? {
        try posted.style(pageSize: shape.pageSize, itemsPath: shape.itemsPath, idField: shape.idField)
    }
}
