import ArgumentParser
import SlippersStore

extension SlippersCommand {
    /// Marks collections stale.
    struct Invalidate: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a collection (or every collection) stale: its pages stay readable until refreshed.")

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The collection's key.")
        var collection: String?

        @Flag(help: "Mark every collection stale.")
        var all = false

        func validate() throws {
            switch (collection, all) {
            case (nil, false): throw ValidationError("Name a collection, or give --all.")
            case (.some, true): throw ValidationError("Name a collection or give --all, not both.")
            default: break
            }
        }

        func execute() async throws {
            let store = try await database.openStorageForWriting(collection: collection)
            if let collection {
                try await store.invalidate(try await store.collectionKey(naming: collection))
                print("invalidated \"\(collection)\"")
            } else {
                let count = try await store.invalidateAll()
                print("invalidated \(Formatting.count(count, "collection"))")
            }
        }
    }
}
