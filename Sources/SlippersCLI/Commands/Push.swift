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
                Each write is sent with its method, URL and JSON, an Idempotency-Key that is the \
                same on every attempt (a write cut off before its answer and sent again is not \
                applied twice by a server that honours the key), and If-Match when edit gave a \
                version. A 2xx acknowledges it: the server's answer becomes the item. A 412 or 409 \
                is a conflict: with --conflict server (the default) the change is dropped and the \
                item fetched again; with --conflict client it is sent again without If-Match. \
                Another 4xx leaves the write failed with the server's reason (slippers outbox \
                retry or drop), and the item's later writes wait behind it. A network failure \
                that outlasts the retries stops the push, the writes still pending; run it again. \
                The --header values go only to the origin of each write's URL, as with sync. \
                Exits 1 when a write failed or the push stopped.
                """)

        /// What a conflict does.
        enum ConflictOption: String, ExpressibleByArgument, CaseIterable {
            case server
            case client
        }

        @OptionGroup var database: DatabaseOptions
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
                var client = HTTPClient(
                    configuration: ServerConfiguration(host: "localhost"),
                    options: HTTPClient.Options(
                        transport: network.transport(), retryPolicy: retrying.requestPolicy,
                        originPolicy: try origins.policy(), logger: logging.logger))
                client.logger = logging.logger
                var push = OutboxPush(store: store, client: client, headers: parsed)
                push.conflictRule = conflict == .server ? .serverWins : .clientWins
                let report = try await push.run()
                print(
                    "pushed: \(report.acknowledged) acknowledged, \(report.failed) failed, "
                        + "\(report.conflicts) conflicts (\(conflict.rawValue) won), \(report.remaining) in the outbox")
                if let stopped = report.stoppedBy {
                    throw CommandFailure.pushStopped(reason: stopped, remaining: report.remaining)
                }
                if report.failed > 0 { throw ExitCode.failure }
            }
        }
    }
}
