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
                let detection: PaginationStyle.Detection
                var pageTwoAdvanced = false
                var marksNoStore = false
                if let body = try await postBodyDetection(client: client, url: url) {
                    (detection, pageTwoAdvanced) = body
                } else if let graphQL = try await graphQLDetection(client: client, url: url) {
                    detection = graphQL
                } else {
                    // As sync detects it, and page 2 asked for in every style: the flags printed are
                    // only ever those whose page 2 was seen to advance.
                    let overrides = shape.overrides(posted: posted, postedStyle: nil)
                    let detected = try await HTTPPageSource.probedDetecting(
                        client: client, url: url, headers: try parsedHeaders(), stub: nil, check: .every,
                        adjusting: { overrides.applied(to: $0) })
                    var found = detected.detection
                    found.style = detected.source.style
                    found.endOfList = found.style.endOfList
                    if detected.firstPage?.caching.cacheControl.noStore == true {
                        found.reasons.append(
                            "the server marks its pages no-store (sensitive data): sync caches them only with "
                                + "--keep-no-store")
                        marksNoStore = true
                    }
                    detection = found
                    pageTwoAdvanced = detected.advanced
                }
                if output.json {
                    print(try JSONOutput.render(detection))
                } else {
                    print(Self.text(detection, pageTwoAdvanced: pageTwoAdvanced, keepsNoStore: marksNoStore))
                }
            }
        }

        /// With `--post-body`: the first page asked for as sync asks it, what its response shows, and
        /// page 2 asked for under the body's page, offset or cursor to see that it advances.
        private func postBodyDetection(
            client: APIClient, url: URL
        ) async throws -> (PaginationStyle.Detection, advanced: Bool)? {
            guard posted.postBody != nil, posted.graphQL == nil,
                let style = try posted.style(
                    pageSize: shape.pageSize, itemsPath: shape.itemsPath, idField: shape.idField, shape: shape)
            else { return nil }
            let given = HTTPPageSource(client: client, url: url, style: style, headers: try parsedHeaders())
            var source = given
            var detection: PaginationStyle.Detection
            let first: Page<RawItem>?
            if let numbered = try await given.detectingNumberedBody() {
                (source, first, detection) = (numbered.source, numbered.firstPage, numbered.detection)
            } else {
                first = try await given.fetch(.first).page
                detection = PaginationStyle.Detection(
                    style: style, confidence: .high, reasons: ["a cursor at \(style.kind.description)"],
                    itemCount: first?.items.count)
            }
            guard let first, let next = first.nextToken else {
                detection.reasons.append("the first page is the last")
                return (detection, false)
            }
            let second = try await source.fetch(PageRequest(token: next)).page
            let firstKeys = Set(first.items.map(\.key))
            let advanced = second?.items.contains { !firstKeys.contains($0.key) } ?? false
            detection.tried = [advanced ? "page 2 brought new items" : "page 2 brought no new items"]
            detection.reasons.append("asked for page 2: " + detection.tried[0])
            return (detection, advanced)
        }

        /// With `--graphql`: the query sent once, and the connection found in its response explained.
        private func graphQLDetection(client: APIClient, url: URL) async throws -> PaginationStyle.Detection? {
            guard var style = try posted.style(pageSize: shape.pageSize, itemsPath: nil, idField: shape.idField)
            else { return nil }
            if let totalPath = shape.totalPath { style.totalKeyPath = totalPath }
            let source = HTTPPageSource(client: client, url: url, style: style, headers: try parsedHeaders())
            if case .graphQL(let connection) = style.kind, connection.paging != .cursor {
                // A list paged by variables: the array of objects its first response holds, read as sync reads it.
                guard let (found, first) = try await source.detectingConnection() else {
                    throw CommandFailure.noGraphQLConnection
                }
                style = found.style
                var reasons = ["a list at \(style.itemsKeyPath), paged by variables of the query"]
                if let total = first.total { reasons.append("the total at \(style.totalKeyPath ?? ""): \(total)") }
                return PaginationStyle.Detection(
                    style: style, confidence: .high, reasons: reasons, itemCount: first.items.count)
            }
            let found = try await source.graphQLConnections()
            let chosen = found.first { $0.connectionPath == posted.connection } ?? found.first
            guard let chosen, posted.connection == nil || chosen.connectionPath == posted.connection else {
                throw CommandFailure.noGraphQLConnection
            }
            let detected = try posted.style(
                pageSize: nil, itemsPath: nil, idField: nil, connectionPath: chosen.connectionPath, items: chosen.items)
            guard let detected else { return nil }
            var reasons = ["a Relay connection at data.\(chosen.connectionPath): \(chosen.items.rawValue) and pageInfo"]
            if !chosen.hasPageInfo { reasons.append("pageInfo lacks hasNextPage or endCursor: ask for both") }
            for other in found where other != chosen {
                reasons.append("another connection at data.\(other.connectionPath) (--connection to page it)")
            }
            return PaginationStyle.Detection(
                style: detected, confidence: chosen.hasPageInfo ? .high : .medium, reasons: reasons,
                itemCount: chosen.itemCount)
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
            if detection.itemCount == nil { return "none: no items array found (give --items-path)" }
            if detection.tried.isEmpty {
                return flags.isEmpty ? "none" : "none: the first page is the last, so no page 2 was seen to advance"
            }
            return "none: no way of asking for page 2 brought new items (see why)"
        }
    }
}
