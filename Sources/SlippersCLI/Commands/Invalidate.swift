import ArgumentParser
import SlippersSQLite

extension SlippersCommand {
    /// Invalidates lists.
    struct Invalidate: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "invalidate",
            abstract:
                "Invalidate a list (or every list): its pages stay readable, unverified until revalidated.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions

        @Argument(help: "The list's key.")
        var list: String?

        @Flag(help: "Invalidate every list.")
        var all = false

        func validate() throws {
            switch (list, all) {
            case (nil, false): throw ValidationError("Name a list, or give --all.")
            case (.some, true): throw ValidationError("Name a list or give --all, not both.")
            default: break
            }
        }

        func execute() async throws {
            var key: String?
            if let list { key = try await database.existingListKey(naming: list, account: account) }
            let store = try await database.openStorageForWriting()
            if let list, let key {
                try await store.invalidate(key)
                print("invalidated \"\(list)\"")
            } else {
                let count = try await store.invalidateAll()
                print("invalidated \(Formatting.count(count, "list"))")
            }
        }
    }
}
