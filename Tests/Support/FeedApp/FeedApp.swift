import Foundation
import SlippersKit

/// A tiny feed app for the tests, in a process of its own: a `PagedList` of a newest-first
/// timeline over a cache file, driven by one command, that prints the rows it shows.
///
/// Usage: `FeedApp DB URL COMMAND [ARGUMENT] [--token TOKEN]`, where COMMAND is
/// - `read N`: opens the list and shows rows until N are shown (or the list ends);
/// - `refresh`: opens the list and pulls to refresh;
/// - `show`: opens the list (offline, say) and shows its first row;
/// - `open ID`: opens the list at the post with the string id ID;
/// - `fill`: opens the list and shows each gap's row, and the last row, until no gap is left and
///   the list has ended;
/// - `misdeclared`: opens the list with a model whose `id` is an `Int`.
///
/// With `--token`, the requests carry `Authorization: Bearer TOKEN` and the list is the account
/// `ann`'s.
///
/// Prints one line per row: the post's id, or `gap` (with `N` when the server said how many),
/// then `error: …` when the list shows an error; exits 0 unless the arguments are wrong.
@main
struct FeedApp {
    struct Post: Codable, Identifiable, CacheIdentifiable, Sendable {
        let id: ID<Post>
        let content: String
    }

    /// A model whose `id` is declared as a number, for a server whose ids are strings.
    struct Misdeclared: Codable, Identifiable, CacheIdentifiable, Sendable {
        let id: Int
        let content: String
    }

    @MainActor
    static func main() async throws {
        var arguments = CommandLine.arguments.dropFirst()
        var configuration = HTTPListConfiguration()
        if let flag = arguments.firstIndex(of: "--token"), arguments.index(after: flag) < arguments.endIndex {
            configuration.headers = ["Authorization": "Bearer \(arguments[arguments.index(after: flag)])"]
            configuration.account = Account("ann")
            arguments.removeSubrange(flag...arguments.index(after: flag))
        }
        guard arguments.count >= 3, let url = URL(string: arguments[arguments.startIndex + 1]) else {
            FileHandle.standardError.write(Data("usage: FeedApp DB URL read N|refresh|show|open ID|fill\n".utf8))
            exit(2)
        }
        let cache = try SQLiteCache(path: arguments[arguments.startIndex])
        defer { try? cache.close() }
        let command = arguments[arguments.startIndex + 2]
        let argument = arguments.count > 3 ? arguments[arguments.startIndex + 3] : ""
        if command == "misdeclared" {
            let list = PagedList<Misdeclared>(url: url, cache: cache, configuration: configuration)
            await list.load()
            print("items: \(list.items.count)")
            if let error = list.refreshError ?? list.appendError { print("error: \(error)") }
            return
        }
        let around = command == "open" ? PagedList<Post>.Anchor.item(ID(argument)) : nil
        let list = PagedList<Post>(
            url: url, cache: cache, configuration: configuration, around: around, distanceFromEnd: 0)
        await list.load()
        switch command {
        case "read":
            let count = Int(argument) ?? 20
            for _ in 0..<1_000 where list.items.count < count && !list.endReached && list.appendError == nil {
                if !list.items.isEmpty { list.rowAppeared(at: list.items.count - 1) }
                await settle(list)
            }
        case "refresh":
            await list.refresh()
        case "fill":
            for _ in 0..<1_000 where list.appendError == nil {
                if let gap = list.gaps.first {
                    list.rowAppeared(.gap(gap))
                } else if !list.endReached, !list.items.isEmpty {
                    list.rowAppeared(at: list.items.count - 1)
                } else {
                    break
                }
                await settle(list)
            }
        default:
            break
        }
        for row in list.rows {
            switch row {
            case .item(let post): print(post.id.stringValue ?? "?")
            case .gap(let gap): print(gap.itemCount.map { "gap \($0)" } ?? "gap")
            }
        }
        if let error = list.refreshError ?? list.appendError { print("error: \(error)") }
        if let opened = list.openedAt { print("opened: \(opened.stringValue ?? "?")") }
    }

    /// Waits until the list has not loaded for 10 ms.
    @MainActor
    static func settle(_ list: PagedList<Post>) async {
        var quiet = 0
        while quiet < 10 {
            quiet = list.isLoading ? 0 : quiet + 1
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
