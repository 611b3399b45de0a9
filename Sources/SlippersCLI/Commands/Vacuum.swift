import ArgumentParser
import SlippersSQLite

extension SlippersCommand {
    /// Gives the space of removed rows back to the file system.
    struct Vacuum: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "vacuum",
            abstract: "Rebuild the cache file to give the space of removed rows back to the file system.")

        @OptionGroup var database: DatabaseOptions

        func execute() async throws {
            let store = try await database.openStorageForWriting()
            let before = try await store.stats().fileSize
            try await store.vacuum()
            let after = try await store.stats().fileSize
            print("vacuumed \(store.locationDescription): \(Formatting.bytes(before)) -> \(Formatting.bytes(after))")
        }
    }
}
