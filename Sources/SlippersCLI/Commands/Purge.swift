import ArgumentParser
import Foundation
import Slippers
import SlippersStorage

extension SlippersCommand {
    /// Removes everything an account holds: sign-out for the command line.
    struct Purge: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Remove everything an account holds: its lists, pages, items, pending writes and watermarks.",
            discussion: """
                One transaction. On a file, the rows are deleted with SQLite's secure_delete on and the \\
                write-ahead log is checkpointed and truncated, so the removed values are no longer in the \\
                file's bytes; on PostgreSQL the rows are deleted (its storage is the server's to scrub). \\
                Pending writes of the account are dropped unsent. Name the account with --account (as \\
                lists shows it), or give the --header values that derived it; --all-accounts \\
                removes every account's data, the anonymous account's included.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions

        @Flag(help: "Remove the data of every account the cache holds.")
        var allAccounts = false

        func validate() throws {
            let named = account.account.declared != nil || !account.headers.isEmpty
            if named == allAccounts {
                throw ValidationError("Give the account to remove (--account NAME or --header), or --all-accounts.")
            }
        }

        func execute() async throws {
            let store = try await database.openStorageForWriting()
            let accounts: [Account]
            if allAccounts {
                accounts = try await store.accounts()
            } else {
                guard case .account(let selected) = try account.selection(in: store) else {
                    throw ValidationError("--header carries no credential: give --account NAME.")
                }
                accounts = [selected]
            }
            for account in accounts {
                let removal = try await store.removeAccount(account)
                print(
                    "purged \(removal.account): \(Formatting.count(removal.lists, "list")), "
                        + "\(Formatting.count(removal.items, "item")), "
                        + "\(Formatting.count(removal.pendingWrites, "pending write")), "
                        + "\(Formatting.count(removal.watermarks, "watermark"))")
            }
            try await store.close()
        }
    }
}
