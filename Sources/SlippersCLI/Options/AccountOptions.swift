import ArgumentParser
import Foundation
import Slippers
import SlippersNetworking
import SlippersStorage

/// `--account NAME` (or `SLIPPERS_ACCOUNT`): whose data a command reads or writes.
struct AccountOptions: ParsableArguments {
    @Option(
        name: .customLong("account"),
        help: ArgumentHelp(
            "Whose data: a name such as the user's id (or SLIPPERS_ACCOUNT); 'anonymous' for requests without "
                + "credentials. Derived from the credentials of --header and the URL's query unless given.",
            valueName: "name"))
    var name: String?

    /// The account declared by `--account`, else by a non-empty `SLIPPERS_ACCOUNT`; `nil` when neither.
    var declared: Account? {
        guard let name = name ?? ProcessInfo.processInfo.environment["SLIPPERS_ACCOUNT"], !name.isEmpty else {
            return nil
        }
        return Account(name)
    }

    /// The options naming `name`, as a queued request gives it; no account declared for `nil`.
    init(name: String?) {
        self.init()
        self.name = name
    }

    init() {}

    func validate() throws {
        if let name, name.isEmpty { throw ValidationError("--account takes a name; 'anonymous' for no account.") }
    }
}

/// `--account NAME` or `--header 'Name: value'`: whose data an inspection command shows.
///
/// Without either, a command finds a list whichever account holds it, and says so when several do.
struct AccountSelectionOptions: ParsableArguments {
    @OptionGroup var account: AccountOptions

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp(
            "A header sync was given, 'Name: value'; repeatable: its credentials select their account. Never stored.",
            valueName: "header"))
    var headers: [String] = []

    func validate() throws {
        _ = try HeaderArgument.parse(headers)
    }

    /// Whose data the command shows: the declared account, else the one the credentials of the
    /// headers and of `typed`'s query (when it is a URL) derive, else any account.
    func selection(in storage: any CacheStorage, typed: String? = nil) throws -> AccountSelection {
        if let declared = account.declared { return .account(declared) }
        let url = typed.flatMap(URL.init(string:))
        guard let digest = HTTPPageSource.credentialDigest(headers: try HeaderArgument.parse(headers), url: url) else {
            return .any
        }
        return .account(storage.account(derivedFrom: digest))
    }
}

/// Whose data an inspection command shows: one account's, or whichever account holds what it names.
enum AccountSelection: Equatable {
    /// This account's only.
    case account(Account)
    /// The one account that holds what the command names; several are an error, never mixed.
    case any

    /// Whether rows of `account` are shown.
    func admits(_ account: Account) -> Bool {
        switch self {
        case .account(let selected): selected == account
        case .any: true
        }
    }
}
