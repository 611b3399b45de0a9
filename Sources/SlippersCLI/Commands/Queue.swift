import ArgumentParser
import Foundation
import SlippersPostgres
import TableOutput

extension SlippersCommand {
    /// Shows the fleet's queue.
    struct Queue: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Show the queue of a PostgreSQL cache: each list's state, when it is due, its schedule, worker, lease, "
                + "pages, attempts, last error.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        func execute() async throws {
            guard database.isPostgres else { throw CommandFailure.needsPostgres(command: "queue") }
            let cache = try await database.openPostgres(logger: LoggingOptions.silent)
            let lists = try await cache.queuedLists()
            if output.json {
                print(try JSONOutput.render(lists))
                return
            }
            var table = TextTable([
                .init(header: "#", alignment: .right), .init(header: "state"), .init(header: "list"),
                .init(header: "due", alignment: .right), .init(header: "every", alignment: .right),
                .init(header: "worker"), .init(header: "lease", alignment: .right),
                .init(header: "pages", alignment: .right), .init(header: "attempts", alignment: .right),
                .init(header: "last error"),
            ])
            let now = Date()
            for list in lists {
                let lease = list.leaseUntil.map { until in
                    until > now ? Formatting.age(until.timeIntervalSince(now)) + " left" : "expired"
                }
                table.append([
                    String(list.id), list.state.rawValue, Formatting.truncated(list.url, to: 60),
                    Self.due(list, now: now), list.every.map { Formatting.age($0) } ?? "-", list.worker ?? "-",
                    lease ?? "-", String(list.pages), String(list.attempts),
                    Formatting.truncated(list.lastError ?? "-", to: 80),
                ])
            }
            print(table.render())
        }

        /// When a pending list is due: `now`, or `in 14m`; `-` for a list no worker waits to take.
        static func due(_ list: QueuedList, now: Date) -> String {
            guard list.state == .pending else { return "-" }
            guard let due = list.dueAt, due > now else { return "now" }
            return "in " + Formatting.age(due.timeIntervalSince(now).rounded(.up))
        }
    }
}
