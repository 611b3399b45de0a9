import Slippers
import SlippersNetworking
import SlippersStorage

/// A failure of a command that is not the cache's: what was asked for is not in the cache.
enum CommandFailure: Error, Equatable {
    /// No item with this id, of this type or in this list.
    case itemNotFound(id: ItemKey, in: String)
    /// The name is neither a list key nor an item type.
    case unknownListOrType(String)
    /// The short name stands for item types of several origins.
    case ambiguousItemType(String, candidates: [String])
    /// The name stands for a list that several accounts hold, and no account was given.
    case ambiguousAccount(String, accounts: [String])
    /// The list has no cached page at this index.
    case pageNotCached(index: Int, list: String, pageCount: Int)
    /// A sync would resume a list with another pagination style than the one it was paged with.
    case styleConflict(list: String, stored: String, requested: String)
    /// `push` stopped on a network failure; the writes left stay pending.
    case pushStopped(reason: String, remaining: Int)
    /// A fleet command was given a cache file: the queue lives in PostgreSQL.
    case needsPostgres(command: String)
    /// A sync stopped before a page the server marked `no-store`; `command` is the same command with
    /// `--keep-no-store`, credentials masked.
    case noStoreNotKept(NoStorePageError, command: String)
}

extension CommandFailure: CustomStringConvertible {
    var description: String {
        switch self {
        case .itemNotFound(let id, let name):
            "No item with id \(id.commandLineText) in \"\(name)\""
        case .unknownListOrType(let name):
            "No list or item type \"\(CredentialQuery.masking(name).shortenedForErrors)\" in the cache"
        case .ambiguousItemType(let name, let candidates):
            "\"\(name)\" names the items of several origins; give one of: \(candidates.joined(separator: ", "))"
        case .ambiguousAccount(let name, let accounts):
            "\"\(CredentialQuery.masking(name).shortenedForErrors)\" is held by \(accounts.count) accounts "
                + "(\(accounts.joined(separator: ", "))); say whose with --account NAME, or the --header that synced it"
        case .pageNotCached(let index, let list, let count):
            "Page \(index) of \"\(list)\" is not cached (it has \(count) page\(count == 1 ? "" : "s"))"
        case .styleConflict(let list, let stored, let requested):
            "\"\(list)\" was paged with --style \(stored), not \(requested); "
                + "add --refresh to start it again with \(requested)"
        case .pushStopped(let reason, let remaining):
            "push stopped: \(reason); \(remaining) write\(remaining == 1 ? "" : "s") "
                + "\(remaining == 1 ? "stays" : "stay") in the outbox, run push again"
        case .needsPostgres(let command):
            "\(command) works on a PostgreSQL cache: give --db postgres://user@host:port/dbname (or SLIPPERS_DB)"
        case .noStoreNotKept(let error, let command):
            "The server marked page \(error.index + 1) of \"\(error.list)\" no-store (sensitive data), so it was "
                + "not cached; to cache it all the same: \(command)"
        }
    }
}
