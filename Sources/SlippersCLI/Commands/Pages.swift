import ArgumentParser
import Foundation
import SlippersStore

extension SlippersCommand {
    /// Lists the cached pages of one collection.
    struct Pages: ReportingCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                List the cached pages of a collection: index, generation, items, age, freshness \
                (verified, lifetime, validator), tokens, staleness.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: "The collection's key, as `slippers collections` lists it.")
        var collection: String

        func execute() throws {
            let store = try database.openForReading()
            let pages = try store.pages(in: collection)
            if output.json {
                print(try JSONOutput.render(pages.map(Record.init)))
                return
            }
            var table = Table([
                .init(header: "page", alignment: .right), .init(header: "gen", alignment: .right),
                .init(header: "items", alignment: .right), .init(header: "age", alignment: .right),
                .init(header: "verified", alignment: .right), .init(header: "lifetime", alignment: .right),
                .init(header: "validator"), .init(header: "token"), .init(header: "next"), .init(header: "etag"),
                .init(header: "stale"),
            ])
            let now = Date()
            for page in pages {
                table.append([
                    String(page.index), String(page.generation), String(page.itemCount),
                    Formatting.age(of: page.fetchedAt, now: now),
                    page.isUnverified ? "unverified" : Formatting.age(of: page.verifiedAt, now: now),
                    Self.lifetime(page, now: now), page.validatorKind.rawValue,
                    Formatting.truncated(page.token?.rawValue ?? "-", to: 40),
                    Formatting.truncated(page.nextToken?.rawValue ?? "-", to: 40),
                    Formatting.truncated(page.validators.etag ?? "-", to: 24),
                    Formatting.yesNo(page.isStale),
                ])
            }
            print(table.render())
        }

        /// The page's lifetime and whether it is still fresh: `60s (fresh)`, `no-cache`, `-` when unknown.
        static func lifetime(_ page: PageInfo, now: Date) -> String {
            if page.requiresRevalidation { return "no-cache" }
            guard let lifetime = page.lifetime else { return "-" }
            return Formatting.age(lifetime) + (page.isFresh(at: now) ? " (fresh)" : " (expired)")
        }
    }
}

extension SlippersCommand.Pages {
    /// One page in `--json` output.
    struct Record: Encodable {
        var index: Int
        var generation: Int
        var itemCount: Int
        @NullWhenAbsent var token: String?
        @NullWhenAbsent var nextToken: String?
        @NullWhenAbsent var etag: String?
        @NullWhenAbsent var lastModified: String?
        var fetchedAt: Date
        var stale: Bool
        @NullWhenAbsent var verifiedAt: Date?
        var unverified: Bool
        @NullWhenAbsent var lifetime: Double?
        var noCache: Bool
        var validator: String
        @NullWhenAbsent var digest: String?

        init(_ page: PageInfo) {
            index = page.index
            generation = page.generation
            itemCount = page.itemCount
            token = page.token?.rawValue
            nextToken = page.nextToken?.rawValue
            etag = page.validators.etag
            lastModified = page.validators.lastModified
            fetchedAt = page.fetchedAt
            stale = page.isStale
            verifiedAt = page.verifiedAt
            unverified = page.isUnverified
            lifetime = page.lifetime
            noCache = page.requiresRevalidation
            validator = page.validatorKind.rawValue
            digest = page.digest
        }
    }
}
