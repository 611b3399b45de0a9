import ArgumentParser
import Foundation
import SlippersKit
import SlippersNetworking
import SlippersSQLite

extension SlippersCommand {
    /// Sends the outbox.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Send the writes in the outbox, oldest first, each once.",
            discussion: """
                Sends the outbox of the push's account (--account, else the one its --header values \
                derive; another account's writes stay pending, counted in one line), oldest first, \
                each write once, on servers that ignore Idempotency-Key and If-Match too: a change is \
                sent only after a read shows the server still holds the copy it was made on, and a \
                POST whose answer was lost is looked for before it is sent again, else left in doubt. \
                --conflict says who wins a conflict. Exits 1 when a write failed, is in doubt, or the \
                network stopped the push. The command-line guide (SlippersKit's CommandLine article) \
                and its SendingOfflineWrites article tell the rules: conditional reads, 412 and 428, \
                inserts in doubt, failed writes.

                Examples:

                    slippers push --header "Authorization: $AUTH"
                    slippers push --account user-42 --header "Authorization: $AUTH"
                    slippers push --conflict client --retries 2
                """)

        /// What a conflict does.
        enum ConflictOption: String, ExpressibleByArgument, CaseIterable {
            case server
            case client
        }

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup(title: "Requests") var network: NetworkOptions
        @OptionGroup var logging: LoggingOptions

        @Option(
            name: .customLong("header"),
            help: ArgumentHelp(
                "An HTTP header for every write, 'Name: value'; repeatable. Never stored.", valueName: "header"))
        var headers: [String] = []

        @Option(help: "Who wins a conflict (412 or 409): the server's copy, or the local change.")
        var conflict: ConflictOption = .server

        @OptionGroup(title: "Requests") var origins: OriginOptions
        @OptionGroup(title: "Requests") var retrying: RetryOptions

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
