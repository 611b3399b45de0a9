import ArgumentParser
import Foundation
import Slippers
import SlippersStore
import TableOutput

extension SlippersCommand {
    /// Lists, retries and drops the writes waiting to be sent.
    struct Outbox: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the writes waiting to be sent (edit queues them, push sends them); retry or drop one.",
            subcommands: [List.self, Retry.self, Drop.self],
            defaultSubcommand: List.self)

        /// Lists the outbox.
        struct List: ReportingCommand {
            static let configuration = CommandConfiguration(
                abstract: "List pending and failed writes, oldest first.",
                discussion: """
                    Each write: its number, state (pending; failed with the server's reason; or in_doubt, a POST \
                    whose answer never arrived and that could not be found on the server, with what to check), \
                    method and URL (credentials in the query masked), item, attempts and age. \
                    Headers are never stored, so never shown.
                    """)

            @OptionGroup var database: DatabaseOptions
            @OptionGroup var output: OutputOptions

            func execute() throws {
                let writes = try database.openForReading().pendingWrites()
                if output.json {
                    print(try JSONOutput.render(writes.map(OutboxEntry.init)))
                    return
                }
                var table = TextTable([
                    .init(header: "id", alignment: .right), .init(header: "state"), .init(header: "method"),
                    .init(header: "url"), .init(header: "type"), .init(header: "item"),
                    .init(header: "attempts", alignment: .right), .init(header: "age", alignment: .right),
                    .init(header: "error"),
                ])
                for write in writes {
                    table.append([
                        String(write.id), write.state.rawValue, write.method, CredentialQuery.masking(write.url),
                        write.itemType, write.itemKey.commandLineText, String(write.attempts),
                        Formatting.age(of: write.createdAt), write.error.map { $0.shortenedForErrors } ?? "",
                    ])
                }
                print(table.render())
            }
        }

        /// Makes a failed write pending again.
        struct Retry: ReportingCommand {
            static let configuration = CommandConfiguration(abstract: "Make a failed write pending again.")

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
        type = write.itemType
        item = write.itemKey
        attempts = write.attempts
        error = write.error
        idempotencyKey = write.idempotencyKey
        ifMatch = write.baseVersion
        createdAt = write.createdAt
    }
}
