import ArgumentParser
import Foundation
import Slippers
import SlippersNetworking

extension SlippersCommand {
    /// Fetches a list's first page and explains the pagination style detected from it.
    struct Detect: AsyncParsableCommand, ListRequestArguments {
        static let configuration = CommandConfiguration(
            abstract: "Fetch a list's first page and explain the pagination style sync would detect.",
            discussion: """
                Prints the style, the items path, the id field, how the end of the list is known, \
                how sure detection is and what it saw. Only the first page is requested; no cache \
                file is opened or created. The --header values go only to the origin of URL, as \
                with sync.
                """)

        @OptionGroup var network: NetworkOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var logging: LoggingOptions

        @Argument(help: "The URL of the list's first page (http or https).")
        var url: String

        @Option(
            name: .customLong("header"),
            help: ArgumentHelp(
                "An HTTP header for the request, 'Name: value'; repeatable. Never stored.", valueName: "header"))
        var headers: [String] = []

        @OptionGroup var origins: OriginOptions

        @OptionGroup var retrying: RetryOptions

        func validate() throws {
            _ = try parsedURL()
            _ = try parsedHeaders()
        }

        func run() async throws {
            try await ErrorReport.reportingAsync {
                let url = try parsedURL()
                guard let configuration = ServerConfiguration(baseURL: url) else { throw invalidURL() }
                let client = HTTPClient(
                    configuration: configuration,
                    options: HTTPClient.Options(
                        transport: network.transport(), retryPolicy: retrying.requestPolicy,
                        originPolicy: try origins.policy(), logger: logging.logger))
                let detection = try await HTTPPageSource.explaining(
                    client: client, url: url, headers: try parsedHeaders())
                if output.json {
                    print(try JSONOutput.render(detection))
                } else {
                    print(Self.text(detection))
                }
            }
        }

        /// The detection as aligned lines, one reason a line.
        static func text(_ detection: PaginationStyle.Detection) -> String {
            let style = detection.style
            var items = style.itemsKeyPath.isEmpty ? "the body (a bare array)" : style.itemsKeyPath
            if let count = detection.itemCount {
                items += " (\(Formatting.count(count, "item")) on the first page)"
            } else {
                items += " (not found)"
            }
            var pageSize = style.pageSize.map(String.init) ?? "the server's"
            if let parameter = style.pageSizeParameter { pageSize += " (?\(parameter)=)" }
            var rows: [(String, String)] = [
                ("style", style.kind.description),
                ("items", items),
                ("id field", style.idField),
                ("page size", pageSize),
                ("total", style.totalKeyPath ?? "none"),
                ("end of list", detection.endOfList),
                ("pages at once", style.isAddressable ? "yes (--concurrency)" : "no, each page names the next"),
                ("confidence", detection.confidence.rawValue),
            ]
            for (position, reason) in detection.reasons.enumerated() {
                rows.append((position == 0 ? "why" : "", reason))
            }
            let width = rows.map(\.0.count).max() ?? 0
            return rows.map { name, value in
                name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
            }.joined(separator: "\n")
        }
    }
}
