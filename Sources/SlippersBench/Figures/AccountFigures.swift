import Foundation
import Slippers
import SlippersSQLite

/// Accounts cost nothing to read: one account's list in a file of ten accounts against the same
/// list in a file that holds one account.
enum AccountFigures {
    static let oneOfTen = FigureGroup(
        id: "accounts",
        summary: "ours: serve 10 000 cached items of one of ten accounts in one file, against a file of one account"
    ) { context in
        let pageSize = context.workload.pageSize
        let pageCount = 10_000 / pageSize
        let key = "GET /messages"
        let one = try AccountFigures.store(
            in: context, named: "accounts-one", accounts: 1, key: key, pageCount: pageCount)
        let ten = try AccountFigures.store(
            in: context, named: "accounts-ten", accounts: 10, key: key, pageCount: pageCount)
        // The account read from the file of ten is one in the middle, its rows among the others'.
        func serve(_ store: SQLiteCache, account: Int) throws {
            let account = Account("user-\(account)")
            let reader = AccountFigures.repository(of: account, in: store)
            let list = ListKey(key, account: account).description
            var served = 0
            for index in 0..<pageCount { served += try reader.page(at: index, in: list)?.count ?? 0 }
            precondition(served == pageCount * pageSize, "an account's list came back short")
        }
        let measured = try context.settings.measureInterleaved([
            { _ in try serve(one, account: 0) }, { _ in try serve(ten, account: 5) },
        ])
        return [
            Figure(
                name: "serve 10000 cached items of one of ten accounts in one file",
                measured: measured[1],
                against: ("the same items in a file of one account", measured[0]),
                target: .ratioAtMost(1.1))
        ]
    }

    /// A file holding the same list for `accounts` accounts, each under its own key and item type.
    private static func store(
        in context: FigureContext, named name: String, accounts: Int, key: String, pageCount: Int
    ) throws -> SQLiteCache {
        let path = try context.makeDirectory(name).appendingPathComponent("cache.sqlite").path
        let store = try SQLiteCache(path: path)
        for account in (0..<accounts).map({ Account("user-\($0)") }) {
            try GeneratedList.fill(
                repository(of: account, in: store), key: ListKey(key, account: account).description,
                pageCount: pageCount, pageSize: context.workload.pageSize, progress: context.progress)
        }
        context.progress.report("filled a store of \(accounts) accounts")
        return store
    }

    /// The repository of `account`'s items, filed under its own item type as a pager of the account files them.
    private static func repository(of account: Account, in store: SQLiteCache) -> Repository<BenchItem> {
        Repository<BenchItem>(cache: store, itemType: ListKey.itemType("BenchItem", account: account))
    }
}
