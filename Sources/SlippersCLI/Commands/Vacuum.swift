import ArgumentParser
import SlippersStore

extension SlippersCommand {
    /// Gives the space of removed rows back to the file system.
    struct Vacuum: ReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rebuild the cache file to give the space of removed rows back to the file system.")

        @OptionGroup var database: DatabaseOptions

        func execute() throws {
            let store = try database.openForWriting()
            let before = try store.stats().fileSize
            try store.vacuum()
            let after = try store.stats().fileSize
            print("vacuumed \(store.path): \(Formatting.bytes(before)) -> \(Formatting.bytes(after))")
        }
    }
}
