import ArgumentParser
import Foundation
import SlippersSQLite
import SlippersStorage

extension SlippersCommand {
    /// Sets, shows and keeps the cache file's budget.
    struct Budget: ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "budget",
            abstract: "Set the cache's budget (bytes of items, age of lists), show it, and keep it now.",
            discussion: """
                With --bytes or --age, sets the budget; --none removes it; with neither, shows it. \
                The budget is kept now and then by itself: after every sync, and after saves at \
                most every 10 seconds. The least recently read lists go first (read: opened \
                by a pager; else written). Never evicted: an item with a write in the outbox, and a \
                list open in a live process of this machine (a pager, a running sync).
                """)

        @OptionGroup var database: DatabaseOptions

        @Option(help: ArgumentHelp("The most bytes of item JSON to keep: 500k, 50MB, 1G.", valueName: "size"))
        var bytes: ByteSize?

        @Option(
            help: ArgumentHelp("The longest a list is kept unread and unwritten: 30d, 12h.", valueName: "age"))
        var age: Age?

        @Flag(help: "Remove the budget.")
        var none = false

        func validate() throws {
            if none, bytes != nil || age != nil {
                throw ValidationError("--none cannot be used with --bytes or --age.")
            }
        }

        func execute() throws {
            let store = try database.openForWriting()
            var report = EvictionReport()
            if none {
                report = try store.setBudget(nil)
            } else if bytes != nil || age != nil {
                report = try store.setBudget(CacheBudget(maxBytes: bytes.map { Int64($0.bytes) }, maxAge: age?.seconds))
            } else {
                report = try store.keepBudget()
            }
            let budget = try store.budget()
            var parts: [String] = []
            if let maxBytes = budget?.maxBytes { parts.append("at most \(Formatting.bytes(maxBytes)) of items") }
            if let maxAge = budget?.maxAge { parts.append("lists unread for \(Formatting.age(maxAge)) evicted") }
            print("budget: " + (parts.isEmpty ? "none" : parts.joined(separator: ", ")))
            if report != EvictionReport() {
                print(
                    "evicted \(Formatting.count(report.lists, "list")), "
                        + "\(Formatting.count(report.pages, "page")), \(Formatting.count(report.items, "item"))")
            }
        }
    }
}
