import ArgumentParser
import SlippersSQLite

extension SlippersCommand {
    /// Invalidates collections.
    struct Invalidate: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Invalidate a collection (or every collection): its pages stay readable, unverified until revalidated.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountSelectionOptions

        @Argument(help: "The collection's key.")
        var collection: String?

        @Flag(help: "Invalidate every collection.")
        var all = false

        func validate() throws {
            switch (collection, all) {
            case (nil, false): throw ValidationError("Name a collection, or give --all.")
            case (.some, true): throw ValidationError("Name a collection or give --all, not both.")
            default: break
            }
        }

        func execute() async throws {
            var key: String?
            if let collection { key = try await database.existingCollectionKey(naming: collection, account: account) }
            let store = try await database.openStorageForWriting()
            if let collection, let key {
                try await store.invalidate(key)
                print("invalidated \"\(collection)\"")
            } else {
                let count = try await store.invalidateAll()
                print("invalidated \(Formatting.count(count, "collection"))")
            }
        }
    }
}
