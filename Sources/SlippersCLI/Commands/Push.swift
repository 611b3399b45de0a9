import ArgumentParser
import Foundation
import SlippersKit
import SlippersNetworking
import SlippersStore

extension SlippersCommand {
    /// Sends the outbox.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the writes edit queued, oldest first, each once.",
            discussion: """
                Most servers ignore Idempotency-Key and If-Match, so push does not rely on them. \
                Before a change (PATCH, PUT, DELETE) is sent, the item is read (If-None-Match \
                with its version) and compared with the copy the change was made on: if the server \
                changed it meanwhile, that is a conflict; if it already holds the change (an answer \
                lost before), the write is acknowledged. A server that answered 412 or 428 once is \
                trusted to check If-Match and is no longer read first. The moment between the read \
                and the write stays open on servers that ignore If-Match. A 428 reads the item's \
                version and sends the write once more with it. A POST (an insert) is sent again by \
                itself only when its connection never opened; one whose answer never arrived (a \
                kill, a timeout, a 5xx) is first looked for in the first and last pages of its list \
                by the members it posted: found, it is acknowledged; not found, sent again; \
                neither, it is left in doubt. The provisional id is not posted. \
                A 2xx acknowledges a write: the server's answer becomes the item. A conflict (412, \
                409, or a change seen by the read): with --conflict server (the default) the change \
                is dropped and the item is the server's; with --conflict client it is sent with \
                the server's current version. A 404 for a change fails it at once, naming \
                --item-url; another 4xx leaves the write failed with the server's reason (slippers \
                outbox retry or drop), and the item's later writes wait behind it. Each failed or \
                in-doubt write is one line on stderr (five at most). A network failure that \
                outlasts the retries stops the push, the writes still pending; run it again. The \
                --header values go only to the origin of each write's URL, as with sync. Only the \
                writes of the push's account are sent (--account, else the one its --header values \
                derive): another account's writes stay pending, counted in one line. Exits 1 \
                when a write failed, is in doubt, or the push stopped.
                """)

        /// What a conflict does.
        enum ConflictOption: String, ExpressibleByArgument, CaseIterable {
            case server
            case client
        }

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var network: NetworkOptions
        @OptionGroup var logging: LoggingOptions

        @Option(
            name: .customLong("header"),
            help: ArgumentHelp(
                "An HTTP header for every write, 'Name: value'; repeatable. Never stored.", valueName: "header"))
        var headers: [String] = []

        @Option(help: "Who wins a conflict (412 or 409): the server's copy, or the local change.")
        var conflict: ConflictOption = .server

        @OptionGroup var origins: OriginOptions
        @OptionGroup var retrying: RetryOptions

        /// One line for each write left failed or in doubt, five at most, then how many more.
        static func problemLines(_ problems: [OutboxPush.Report.Problem]) -> [String] {
            var lines = problems.prefix(5).map { problem in
                "slippers: write \(problem.writeID) (\(problem.item)) \(problem.state == .inDoubt ? "in doubt" : "failed"): "
                    + problem.reason.split(whereSeparator: \.isNewline).joined(separator: " ")
            }
            if problems.count > 5 { lines.append("slippers: and \(problems.count - 5) more: slippers outbox") }
            return lines
        }

        func validate() throws {
            for (position, text) in headers.enumerated() where HeaderArgument(argument: text) == nil {
                throw ValidationError("--header takes 'Name: value'; header \(position + 1) is not of that form.")
            }
        }

        func run() async throws {
            try await ErrorReport.reportingAsync {
                let store = try database.openForWriting(logger: logging.logger)
                var parsed: [String: String] = [:]
                for header in headers.compactMap(HeaderArgument.init(argument:)) { parsed[header.name] = header.value }
                var client = APIClient(
                    configuration: ServerConfiguration(host: "localhost"),
                    options: APIClient.Options(
                        transport: network.transport(), retryPolicy: retrying.requestPolicy,
                        originPolicy: try origins.policy(), logger: logging.logger))
                client.logger = logging.logger
                var push = OutboxPush(cache: store, client: client, headers: parsed)
                push.account = account.declared
                push.conflictRule = conflict == .server ? .serverWins : .clientWins
                let report = try await push.run()
                var summary =
                    "pushed: \(report.acknowledged) acknowledged, \(report.failed) failed, "
                    + "\(report.conflicts) conflicts (\(conflict.rawValue) won)"
                if report.inDoubt > 0 { summary += ", \(report.inDoubt) in doubt" }
                print(summary + ", \(report.remaining) in the outbox")
                if report.otherAccounts > 0 {
                    StandardError.write(
                        "slippers: other accounts have \(Formatting.count(report.otherAccounts, "write")) waiting: a "
                            + "push sends only its own account's (--account NAME, or the --header that made them; "
                            + "slippers outbox)")
                }
                for line in Self.problemLines(report.problems) { StandardError.write(line) }
                if let stopped = report.stoppedBy {
                    throw CommandFailure.pushStopped(reason: stopped, remaining: report.remaining)
                }
                if report.failed > 0 || report.inDoubt > 0 { throw ExitCode.failure }
            }
        }
    }
}
