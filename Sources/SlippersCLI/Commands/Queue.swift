import ArgumentParser
import Foundation
import SlippersPostgres
import TableOutput

extension SlippersCommand {
    /// Shows the fleet's queue.
    struct Queue: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "queue",
            abstract:
                "Show the queue of a PostgreSQL cache: each list's state, when it is due, its schedule, worker, lease, "
                + "pages, attempts, last error.",
            discussion: """
                --watch shows the queue again every second, with each due list's lag (how long it \
                has waited past its due time) and a line of counts by state, until Ctrl-C. On a \
                terminal it redraws the screen; when stdout is not a terminal (a pipe, a file, a \
                log), it prints the queue once a second, each after a line with the time, and no \
                escape codes.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        @Flag(help: "Show the queue again every second, with each list's lag, until Ctrl-C.")
        var watch = false

        func validate() throws {
            if watch, output.json { throw ValidationError("--watch shows tables; it takes no --json.") }
        }

        func execute() async throws {
            guard database.isPostgres else { throw CommandFailure.needsPostgres(command: "queue") }
            let cache = try await database.openPostgres(logger: LoggingOptions.silent)
            guard watch else {
                let lists = try await cache.queuedLists()
                if output.json {
                    print(try JSONOutput.render(lists))
                    return
                }
                print(Self.table(lists, now: Date(), lag: false))
                return
            }
            let terminal = isatty(STDOUT_FILENO) == 1
            while true {
                let lists = try await cache.queuedLists()
                let now = Date()
                let screen = Self.summary(lists, now: now) + "\n" + Self.table(lists, now: now, lag: true)
                // On a terminal: home, clear, then the queue; elsewhere, one timestamped copy a second.
                let text = terminal ? "\u{1B}[H\u{1B}[2J" + screen + "\n" : screen + "\n\n"
                FileHandle.standardOutput.write(Data(text.utf8))
                try await Task.sleep(for: .seconds(1))
            }
        }

        /// The watch's first line: the time, the lists by state and the queue's lag.
        static func summary(_ lists: [QueuedList], now: Date) -> String {
            let states: [QueuedList.State] = [.pending, .running, .done, .failed]
            let counts = states.map { state in "\(lists.filter { $0.state == state }.count) \(state.rawValue)" }
            let longest = lists.compactMap { Self.lag(of: $0, now: now) }.max() ?? 0
            return "\(now.formatted(.iso8601)) · " + counts.joined(separator: ", ") + " · lag "
                + Formatting.age(longest.rounded())
        }

        /// How long a due list has waited past its due time; `nil` for a list not due.
        static func lag(of list: QueuedList, now: Date) -> TimeInterval? {
            switch list.state {
            case .pending:
                let due = list.dueAt ?? list.enqueuedAt
                return due <= now ? now.timeIntervalSince(due) : nil
            case .running:
                guard let until = list.leaseUntil, until < now else { return nil }
                return now.timeIntervalSince(until)
            case .done, .failed:
                return nil
            }
        }

        /// The queue as a table; with a lag column when `lag`.
        static func table(_ lists: [QueuedList], now: Date, lag showsLag: Bool) -> String {
            var columns: [TextTable.Column] = [
                .init(header: "#", alignment: .right), .init(header: "state"), .init(header: "list"),
                .init(header: "due", alignment: .right),
            ]
            if showsLag { columns.append(.init(header: "lag", alignment: .right)) }
            columns += [
                .init(header: "every", alignment: .right), .init(header: "worker"),
                .init(header: "lease", alignment: .right), .init(header: "pages", alignment: .right),
                .init(header: "attempts", alignment: .right), .init(header: "last error"),
            ]
            var table = TextTable(columns)
            for list in lists {
                let lease = list.leaseUntil.map { until in
                    until > now ? Formatting.age(until.timeIntervalSince(now)) + " left" : "expired"
                }
                var row = [
                    String(list.id), list.state.rawValue, Formatting.truncated(list.url, to: 60),
                    Self.due(list, now: now),
                ]
                if showsLag { row.append(Self.lag(of: list, now: now).map { Formatting.age($0.rounded()) } ?? "-") }
                row += [
                    list.every.map { Formatting.age($0) } ?? "-", list.worker ?? "-", lease ?? "-", String(list.pages),
                    String(list.attempts), Formatting.truncated(list.lastError ?? "-", to: 80),
                ]
                table.append(row)
            }
            return table.render()
        }

        /// When a pending list is due: `now`, or `in 14m`; `-` for a list no worker waits to take.
        static func due(_ list: QueuedList, now: Date) -> String {
            guard list.state == .pending else { return "-" }
            guard let due = list.dueAt, due > now else { return "now" }
            return "in " + Formatting.age(due.timeIntervalSince(now).rounded(.up))
        }
    }
}
