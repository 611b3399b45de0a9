import Foundation
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

@Suite struct ListsCommandTests {
    static let keys = [
        "account", "created_at", "end_reached", "gaps", "generation", "incomplete", "invalidated_at", "item_count",
        "item_type",
        "key",
        "last_fetched_at", "next_page_index", "page_count", "refreshed_at", "resume_token",
        "style", "superseded_page_count", "total", "unverified",
    ]

    @Test func listsEachListWithItsFiguresInAnAlignedTable() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["lists", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
        let lines = outcome.stdoutLines
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("list        account    type  items  pages  total  end"))
        #expect(lines[2].hasPrefix("GET /posts  anonymous  Post    150      3    150  yes"))
        #expect(lines[2].hasSuffix("no"))
        #expect(lines[3].hasPrefix("GET /users  anonymous  User      3      1      -  no"))
    }

    @Test func jsonHasEveryKeySortedWithNullsAndISODates() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
        #expect(outcome.status == 0)
        let lists = try #require(try parsedJSON(outcome.stdout) as? [[String: Any]])
        #expect(lists.count == 2)
        #expect(writtenKeys(ofFirstObjectIn: outcome.stdout) == Self.keys)
        let posts = lists[0]
        #expect(Set(posts.keys) == Set(Self.keys))
        #expect(posts["key"] as? String == "GET /posts")
        #expect(posts["item_count"] as? Int == 150)
        #expect(posts["page_count"] as? Int == 3)
        #expect(posts["total"] as? Int == 150)
        #expect(posts["end_reached"] as? Bool == true)
        #expect(posts["unverified"] as? Bool == false)
        #expect(posts["incomplete"] as? Bool == false)
        #expect(posts["invalidated_at"] is NSNull)
        #expect(posts["resume_token"] is NSNull)
        let created = try #require(posts["created_at"] as? String)
        #expect((try? Date(created, strategy: .iso8601)) != nil)
        let users = lists[1]
        #expect(Set(users.keys) == Set(Self.keys))
        #expect(users["total"] is NSNull)
        #expect(users["resume_token"] as? String == "cursor-abc")
        #expect(users["next_page_index"] as? Int == 1)
    }

    @Test func anEmptyCacheListsNoRows() async throws {
        let directory = try TemporaryDirectory()
        _ = try await BuiltBinary.slippers.run(["stats", "--db", directory.path()])
        let table = try await BuiltBinary.slippers.run(["lists", "--db", directory.path()])
        #expect(table.status == 0)
        #expect(table.stdoutLines.count == 2)
        let json = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
        #expect(json.stdout == "[\n\n]\n" || json.stdout == "[]\n")
    }

    @Test func aMissingFileIsReportedAndNotCreated() async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run(["lists", "--db", directory.path("missing.sqlite")])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderrLines == ["slippers: No cache file at \(directory.path("missing.sqlite"))"])
        #expect(!fileExists(directory.path("missing.sqlite")))
    }

    @Test func theDatabaseComesFromTheEnvironmentThenTheWorkingDirectory() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path("env.sqlite"))
        try SeededCache.write(at: directory.path("slippers.sqlite"))
        try SeededCache.execute(
            "DELETE FROM collections WHERE key = 'GET /users'", at: directory.path("slippers.sqlite"))
        let fromEnvironment = try await BuiltBinary.slippers.run(
            ["lists"], in: directory.url, environment: ["SLIPPERS_DB": directory.path("env.sqlite")])
        #expect(fromEnvironment.stdoutLines.count == 4)
        let fromDefault = try await BuiltBinary.slippers.run(["lists"], in: directory.url)
        #expect(fromDefault.status == 0)
        #expect(fromDefault.stdoutLines.count == 3)
    }

    @Test func aFeedWithAGapSaysSoInTheTableAndTheJSON() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let store = try SQLiteCache(path: directory.path())
        // A burst on the users' feed: a first page that lists no cached user leaves a gap below it.
        let burst = ["u9", "u8"].map { RawItem(key: .string($0), json: SeededCache.userJSON($0)) }
        let merged = try store.mergeFeedHead(
            Page(items: burst, token: nil, nextToken: PageToken("u7")), in: SeededCache.users)
        #expect(merged.gapRecorded)
        try store.close()

        let table = try await BuiltBinary.slippers.run(["lists", "--db", directory.path()])
        #expect(table.status == 0)
        #expect(table.stdoutLines[3].contains("1 GAP"), "\(table.stdout)")
        let json = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["gaps"] as? Int } == [0, 1])
        let pages = try await BuiltBinary.slippers.run(["pages", SeededCache.users.key, "--db", directory.path()])
        #expect(pages.status == 0)
        #expect(pages.stdoutLines[2].hasSuffix(" 1"), "\(pages.stdout)")
    }
}
