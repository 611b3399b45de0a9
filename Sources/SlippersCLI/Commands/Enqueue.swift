import ArgumentParser
import Foundation
import Slippers
import SlippersPostgres

extension SlippersCommand {
    /// Adds lists to the fleet's queue in a PostgreSQL cache.
    struct Enqueue: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add lists to the queue of a PostgreSQL cache, for `slippers worker` processes to sync.",
            discussion: """
                Each URL is queued with the sync options given after --, as `slippers sync` takes \
                them (for example -- --style page --page-size 100). Headers are never queued: give \
                credentials to the workers (worker --origin-header or --header-file). A list \
                already queued with the same options is made pending again unless a worker holds it.
                """)

        @OptionGroup var database: DatabaseOptions

        @Argument(
            parsing: .captureForPassthrough,
            help: ArgumentHelp(
                "The URLs of the lists' first pages, then, after --, their sync options (what `slippers sync` "
                    + "takes, without --header).", valueName: "url… [-- option…]"))
        var words: [String] = []

        /// The URLs: the words before `--`.
        var urls: [String] { Array(words.prefix { $0 != "--" }) }

        /// The sync options: the words after `--`.
        var options: [String] { Array(words.drop { $0 != "--" }.dropFirst()) }

        func validate() throws {
            if urls.contains("--help") || urls.contains("-h") { throw CleanExit.helpRequest(self) }
            if urls.isEmpty { throw ValidationError("Give at least one URL.") }
            if urls.contains(where: { $0 == "--db" || $0.hasPrefix("--db=") }) {
                throw ValidationError("Give --db before the URLs: what follows them is theirs.")
            }
            if let option = urls.first(where: { $0.hasPrefix("-") }) {
                throw ValidationError("\(option) is a sync option: give the lists' options after --.")
            }
            if options.contains(where: { $0 == "--header" || $0.hasPrefix("--header=") }) {
                throw ValidationError("Headers are never queued: give them to the workers with --origin-header.")
            }
            if options.contains(where: { $0 == "--db" || $0.hasPrefix("--db=") }) {
                throw ValidationError("The lists are synced into the queue's database: --db is not a sync option here.")
            }
            for url in urls where CredentialQuery.masking(url) != url {
                throw ValidationError(
                    "\(CredentialQuery.masking(url)) carries a credential in its query, and the queue stores "
                        + "nothing secret: sync that list with `slippers sync`, or give the credential to the workers "
                        + "as a header (worker --origin-header).")
            }
            for url in urls {
                // The options must be what sync takes: parsed now, not when a worker runs them.
                _ = try SlippersCommand.Sync.parse([url] + options)
            }
        }

        func execute() async throws {
            guard database.isPostgres else { throw CommandFailure.needsPostgres(command: "enqueue") }
            let cache = try await database.openPostgres(logger: LoggingOptions.silent)
            let ids = try await cache.enqueue(urls, options: options)
            for (id, url) in zip(ids, urls) { print("queued #\(id) \(url)") }
        }
    }
}
