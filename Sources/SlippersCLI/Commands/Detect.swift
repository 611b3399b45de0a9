import ArgumentParser
import Foundation
import Slippers
import SlippersNetworking

extension SlippersCommand {
    /// Fetches a list's first page and explains the pagination style detected from it.
    struct Detect: AsyncParsableCommand, ListRequestArguments {
        static let configuration = CommandConfiguration(
            commandName: "detect",
            abstract: "Fetch a list's first page and explain the pagination style sync would detect.",
            discussion: """
                Prints the style, the items path, the id field, how the end of the list is known, \
                how sure detection is and what it saw. Only the first page is requested; no cache \
                file is opened or created. The --header values go only to the origin of URL, as \
                with sync. With --graphql, the query is sent by POST and the Relay connection in \
                its response (an object with edges or nodes and pageInfo) is found and explained.

                Examples:

                    slippers detect https://api.example.com/posts
                    slippers detect 'https://api.example.com/posts?per_page=50' --json
                    slippers detect https://api.github.com/graphql --graphql @issues.graphql \\
                        --header "Authorization: Bearer $TOKEN"
                """)

        @OptionGroup var output: OutputOptions
        @OptionGroup var logging: LoggingOptions

        @Argument(help: "The URL of the list's first page (http or https).")
        var url: String

        @Option(
            name: .customLong("header"),
            help: ArgumentHelp(
                "An HTTP header for the request, 'Name: value'; repeatable. Never stored.", valueName: "header"))
        var headers: [String] = []

        @OptionGroup(title: "How the list pages (detected unless given)") var shape: ListShapeOptions

        @OptionGroup(title: "Lists asked for by POST") var posted: PostedStyleOptions

        @OptionGroup(title: "Requests") var network: NetworkOptions

        @OptionGroup(title: "Requests") var origins: OriginOptions

        @OptionGroup(title: "Requests") var retrying: RetryOptions

        func validate() throws {
            _ = try parsedURL()
            _ = try parsedHeaders()
            try shape.validate(posted: posted)
        }

        func run() async throws {
            try await ErrorReport.reportingAsync {
                let url = try parsedURL()
                guard let configuration = ServerConfiguration(baseURL: url) else { throw invalidURL() }
                let client = APIClient(
                    configuration: configuration,
                    options: APIClient.Options(
                        transport: network.transport(), retryPolicy: retrying.requestPolicy,
                        originPolicy: try origins.policy(), logger: logging.logger))
                // As sync detects it, and page 2 asked for in every style: the flags printed are
                // only ever those whose page 2 was seen to advance.
                let overrides = shape.overrides(posted: posted, postedStyle: nil)
                let detected = try await HTTPPageSource.detect(
                    client: client, url: url, headers: try parsedHeaders(),
                    posted: try posted.requestStyle(shape: shape).postedStyle(), pageTwo: .every,
                    adjusting: { overrides.applied(to: $0) })
                var detection = detected.detection
                detection.style = detected.source.style
                detection.endOfList = detection.style.endOfList
                let marksNoStore = detected.firstPage?.caching.cacheControl.noStore == true
                if marksNoStore {
                    detection.reasons.append(
                        "the server marks its pages no-store (sensitive data): sync caches them only with "
                            + "--keep-no-store")
                }
                let pageTwoAdvanced = detected.advanced
                if output.json {
                    print(try JSONOutput.render(detection))
                } else {
                    print(Self.text(detection, pageTwoAdvanced: pageTwoAdvanced, keepsNoStore: marksNoStore))
                }
            }
        }

        /// The detection as aligned lines, one reason a line; the flags only when page 2 was seen to advance.
        static func text(
            _ detection: PaginationStyle.Detection, pageTwoAdvanced: Bool, keepsNoStore: Bool = false
        ) -> String {
            let style = detection.style
            var items = style.itemsKeyPath.isEmpty ? "the body (a bare array)" : style.itemsKeyPath
            if case .graphQL(let connection) = style.kind, connection.items == .edges { items += "[].node" }
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
                ("total", style.totalKeyPath ?? detection.totalHeader.map { "the \($0) header" } ?? "none"),
                ("end of list", detection.endOfList),
                ("pages at once", style.isAddressable ? "yes (--concurrency)" : "no, each page names the next"),
                ("confidence", detection.confidence.rawValue),
            ]
            for (position, reason) in detection.reasons.enumerated() {
                rows.append((position == 0 ? "why" : "", reason))
            }
            var flags = flagsText(detection, pageTwoAdvanced: pageTwoAdvanced)
            if keepsNoStore, flags.hasPrefix("--") { flags += " --keep-no-store" }
            rows.append(("flags", flags))
            let width = rows.map(\.0.count).max() ?? 0
            return rows.map { name, value in
                name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
            }.joined(separator: "\n")
        }

        /// The `sync` options that reproduce the style, when page 2 advanced under it; else why none are given.
        private static func flagsText(_ detection: PaginationStyle.Detection, pageTwoAdvanced: Bool) -> String {
            let flags = detection.style.commandLineFlags
            if pageTwoAdvanced, !flags.isEmpty { return flags.joined(separator: " ") }
            if pageTwoAdvanced { return "none beyond the options given: sync finds this way as detect did" }
            if detection.itemCount == nil { return "none: no items array found (give --items-path)" }
            if detection.tried.isEmpty {
                return flags.isEmpty ? "none" : "none: the first page is the last, so no page 2 was seen to advance"
            }
            return "none: no way of asking for page 2 brought new items (see why)"
        }
    }
}
