import ArgumentParser
import Foundation
import Slippers
import SlippersSQLite
import TableOutput

extension SlippersCommand {
    /// Lists, retries and drops the writes waiting to be sent.
    struct Outbox: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "outbox",
            abstract: "List the writes waiting to be sent (edit makes them, push sends them); retry or drop one.",
            subcommands: [List.self, Retry.self, Drop.self],
            defaultSubcommand: List.self)

        /// Lists the outbox.
        struct List: ReportingCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "List pending and failed writes, oldest first.",
                discussion: """
                    Each write: its number, state (pending; failed with the server's reason; or in_doubt, a POST \
                    whose answer never arrived and that could not be found on the server, with what to check), \
                    method and URL (credentials in the query masked), account, item, attempts and age. \
                    Headers are never stored, so never shown. A write goes out only by a push of its \
                    account; a derived account (~ and a fingerprint) is the one its credentials gave, so \
                    writes of one that the --header values given no longer derive (a rotated token) are \
                    told on stderr: push them with the credentials that made them, and declare an account \
                    (--account, the user's id) to survive token rotation.
                    """)

            @OptionGroup var database: DatabaseOptions
            @OptionGroup var account: AccountSelectionOptions
            @OptionGroup var output: OutputOptions

            func execute() throws {
                let store = try database.openForReading()
                let selection = try account.selection(in: store)
                let all = try store.pendingWrites()
                let writes = all.filter { selection.admits($0.account) }
                for line in Self.strandedLines(all, selection: selection) { StandardError.write(line) }
                if output.json {
                    print(try JSONOutput.render(writes.map(OutboxEntry.init)))
                    return
                }
                var table = TextTable([
                    .init(header: "id", alignment: .right), .init(header: "state"), .init(header: "method"),
                    .init(header: "url"), .init(header: "account"), .init(header: "type"), .init(header: "item"),
                    .init(header: "attempts", alignment: .right), .init(header: "age", alignment: .right),
                    .init(header: "error"),
                ])
                for write in writes {
                    table.append([
                        String(write.id), write.state.rawValue, write.method, CredentialQuery.masking(write.url),
                        write.account.description, ListKey.account(ofItemType: write.itemType).itemType,
                        write.itemKey.commandLineText, String(write.attempts),
                        Formatting.age(of: write.createdAt), write.error.map { $0.shortenedForErrors } ?? "",
                    ])
                }
                print(table.render())
            }

            /// One line per account derived from credentials that the credentials given (`--header`)
            /// do not derive, or, with none given, per derived account: its writes wait for a push with
            /// the credentials that made them, which a rotated token no longer is.
            static func strandedLines(_ writes: [PendingWrite], selection: AccountSelection) -> [String] {
                if case .account(let given) = selection, !given.isDerived { return [] }
                var counts: [Account: Int] = [:]
                for write in writes where write.account.isDerived && selection != .account(write.account) {
                    counts[write.account, default: 0] += 1
                }
                let given = selection != .any
                return counts.sorted { $0.key < $1.key }.map { account, count in
                    "slippers: \(account) "
                        + (given ? "(credentials other than these) " : "(an account derived from credentials) ")
                        + "has \(Formatting.count(count, "write")) that only a push with its credentials sends; after a "
                        + "token rotation none can: declare --account (the user's id) instead"
                }
            }
        }

        /// Makes a failed write, or an insert in doubt, pending again.
        struct Retry: ReportingCommand {
            static let configuration = CommandConfiguration(
                commandName: "retry",
                abstract: "Make a failed write pending again; an insert in doubt is then sent as a new item.")

            @OptionGroup var database: DatabaseOptions

            @Argument(help: "The write's number, as outbox lists it.")
            var id: Int64

            func execute() throws {
                try database.openForWriting().retryWrite(id)
                print("write \(id) is pending again; slippers push sends it")
            }
        }

        /// Drops a write and undoes its change.
        struct Drop: ReportingCommand {
            static let configuration = CommandConfiguration(
                commandName: "drop",
                abstract: "Drop a write without sending it; its change is undone in the cache.")

            @OptionGroup var database: DatabaseOptions

            @Argument(help: "The write's number, as outbox lists it.")
            var id: Int64

            func execute() throws {
                try database.openForWriting().discardWrite(id)
                print("dropped write \(id)")
            }
        }
    }
}

/// A write as `outbox --json` prints it: the body is the JSON it sends, never a header.
struct OutboxEntry: Encodable {
    var id: Int64
    var state: String
    var kind: String
    var method: String
    var url: String
    var account: String
    var type: String
    var item: ItemKey
    var attempts: Int
    var error: String?
    var idempotencyKey: String
    var ifMatch: String?
    var createdAt: Date

    init(_ write: PendingWrite) {
        id = write.id
        state = write.state.rawValue
        kind = write.kind.rawValue
        method = write.method
        url = CredentialQuery.masking(write.url)
        account = write.account.description
        type = ListKey.account(ofItemType: write.itemType).itemType
        item = write.itemKey
        attempts = write.attempts
        error = write.error
        idempotencyKey = write.idempotencyKey
        ifMatch = write.baseVersion
        createdAt = write.createdAt
    }
}
