import Foundation
import SlippersKit
import SlippersNetworking
import SlippersSQLite
import SlippersStorage

extension CacheStorage {
    /// The key of the list a person means by `typed`, among the lists of the selected
    /// account: its key as `CacheStorage.listKey(typed:)` finds it (the account added when
    /// the text names none); else the list `sync` filed the list at the URL `typed` under
    /// (its key leaves out the paging parameters of the list's style: `…/items?size=50` is filed
    /// as `…/items` when `size` sets its page size, so the URL given to `sync` finds its list);
    /// else the one list of the item type `typed` names, in full or by its short name
    /// (`posts` for `posts@https://api.example.com`).
    ///
    /// - returns: The key found, or `typed` as `CacheStorage.listKey(typed:)` gives it.
    /// - throws: ``CommandFailure/ambiguousItemType(_:candidates:)`` when a type names several
    ///   lists; ``CommandFailure/ambiguousAccount(_:accounts:)`` when any account may hold
    ///   the list and several do.
    func listKey(naming typed: String, account selection: AccountSelection = .any) async throws -> String {
        let typedKey = ListKey(parsing: try await listKey(typed: typed))
        let all = try await lists()
        // A key that names its account names one list, whatever else the text could stand for.
        if !typedKey.account.isAnonymous, selection.admits(typedKey.account),
            all.contains(where: { $0.key == typedKey.description })
        {
            return typedKey.description
        }
        let accounts: [Account]
        switch selection {
        case .account(let account): accounts = [account]
        case .any:
            accounts = Set(all.map(\.account)).sorted()
        }
        var found: [(account: Account, key: String)] = []
        for account in accounts {
            if let key = try await listKey(naming: typed, typedKey: typedKey, account: account, among: all) {
                found.append((account, key))
            }
        }
        if found.count > 1 {
            throw CommandFailure.ambiguousAccount(typed, accounts: found.map(\.account.description))
        }
        if let only = found.first { return only.key }
        guard case .account(let account) = selection, typedKey.account.isAnonymous else {
            return typedKey.description
        }
        return typedKey.forAccount(account).description
    }

    /// The key of `account`'s list that `typed` names, or `nil` when it has none.
    private func listKey(
        naming typed: String, typedKey: ListKey, account: Account, among all: [ListInfo]
    ) async throws -> String? {
        let exact = typedKey.account.isAnonymous ? typedKey.forAccount(account) : typedKey
        if exact.account == account, all.contains(where: { $0.key == exact.description }) { return exact.description }
        if let url = URL(string: typed), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            let configuration = ServerConfiguration(baseURL: url)
        {
            // The client only names the list; it sends nothing.
            let client = APIClient(
                configuration: configuration,
                options: APIClient.Options(transport: StubTransport(StubResponse(statusCode: 404))))
            if let found = try await httpLists(for: url, client: client, account: account).first {
                return ListKey(parsing: found.list.key).forAccount(account).description
            }
        }
        let ofType = all.filter { list in
            let filed = ListKey.account(ofItemType: list.itemType)
            return filed.account == account && (filed.itemType == typed || filed.itemType.hasPrefix(typed + "@"))
                && ListKey(parsing: list.key).account == account
        }
        if ofType.count > 1 {
            throw CommandFailure.ambiguousItemType(typed, candidates: ofType.map(\.key))
        }
        return ofType.first?.key
    }
}
