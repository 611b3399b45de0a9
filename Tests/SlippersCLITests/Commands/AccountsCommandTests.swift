import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// Two people on one cache file: nothing one synced, edited or queued reaches the other, and a
/// purge leaves none of the purged account's values in the file's bytes.
@Suite struct AccountsCommandTests {
    static let alice = ["--header", "Authorization: Bearer alice-token"]
    static let bob = ["--header", "Authorization: Bearer bob-token"]

    /// A fixture server with a list that answers each token with its user's items, and its URL.
    static func withAccountList(_ body: (FixtureServer, AccountList, String) async throws -> Void) async throws {
        try await RunningFixture.with(itemCount: 10, pageSize: 10) { fixture in
            let list = AccountList(
                tokens: ["alice-token": "alice", "alice-rotated": "alice", "bob-token": "bob"], count: 30)
            list.install(on: fixture.server)
            try await body(fixture.server, list, fixture.server.url(path: "/mine").absoluteString)
        }
    }

    static func secrets(_ ndjson: String) throws -> Set<String> {
        Set(
            try ndjson.split(separator: "\n").map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return object?["secret"] as? String ?? ""
            })
    }

    @Test func twoTokensSyncTwoListsAndExportEachOneExactly() async throws {
        try await Self.withAccountList { server, _, url in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let first = try await BuiltBinary.slippers.run(["sync", url] + db + Self.alice)
            #expect(first.status == 0, "\(first.stderr)")
            // bob's sync of the list alice completed fetches bob's list: alice's is not his.
            server.resetRequests()
            let second = try await BuiltBinary.slippers.run(["sync", url] + db + Self.bob)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("synced 30 items"), "\(second.stdout)")
            #expect(server.requests.count == 3)

            let aliceExport = try await BuiltBinary.slippers.run(
                ["export", url, "--format", "ndjson"] + db + Self.alice)
            let bobExport = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + db + Self.bob)
            #expect(try Self.secrets(aliceExport.stdout) == Set((1...30).map { "alice-secret-\($0)" }))
            #expect(try Self.secrets(bobExport.stdout) == Set((1...30).map { "bob-secret-\($0)" }))

            // Without an account, a list two accounts hold is refused, naming both, never mixed.
            let either = try await BuiltBinary.slippers.run(["export", url] + db)
            #expect(either.status == 1)
            #expect(either.stdout.isEmpty)
            #expect(either.stderr.contains("is held by 2 accounts (~"), "\(either.stderr)")
            let get = try await BuiltBinary.slippers.run(["get", url, "3"] + db)
            #expect(get.status == 1 && get.stderr.contains("is held by 2 accounts"), "\(get.stderr)")
            let bobs = try await BuiltBinary.slippers.run(["get", url, "3"] + db + Self.bob)
            #expect(bobs.stdout.contains("bob-secret-3") && !bobs.stdout.contains("alice"), "\(bobs.stdout)")

            // lists shows each list's account as a fingerprint, never the token.
            let lists = try await BuiltBinary.slippers.run(["lists", "--json"] + db)
            let rows = try #require(
                try JSONSerialization.jsonObject(with: Data(lists.stdout.utf8)) as? [[String: Any]])
            let accounts = rows.compactMap { $0["account"] as? String }
            #expect(accounts.count == 2 && Set(accounts).count == 2 && accounts.allSatisfy { $0.hasPrefix("~") })
            #expect(!lists.stdout.contains("alice-token") && !lists.stdout.contains("bob-token"))
            let stats = try await BuiltBinary.slippers.run(["stats"] + db)
            #expect(stats.stdout.contains("accounts     ~"), "\(stats.stdout)")
        }
    }

    @Test func aWriteGoesOutOnlyAsTheAccountThatMadeIt() async throws {
        try await Self.withAccountList { server, list, url in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db + Self.alice).status == 0)
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db + Self.bob).status == 0)
            let edit = try await BuiltBinary.slippers.run(
                ["edit", url, "7", "--set", #"{"title": "alice's edit"}"#] + db + Self.alice)
            #expect(edit.status == 0, "\(edit.stderr)")

            // bob's push leaves alice's write pending, says so, and sends nothing with bob's token.
            server.resetRequests()
            let bobPush = try await BuiltBinary.slippers.run(["push"] + db + Self.bob)
            #expect(bobPush.status == 0, "\(bobPush.stderr)")
            #expect(bobPush.stdout.contains("pushed: 0 acknowledged"), "\(bobPush.stdout)")
            #expect(bobPush.stderr.contains("other accounts have 1 write waiting"), "\(bobPush.stderr)")
            #expect(server.requests.isEmpty)
            #expect(list.writes.isEmpty)

            // A rotated token derives another account: its push does not send the write either,
            // and outbox names the account whose credentials it waits for.
            let rotated = try await BuiltBinary.slippers.run(
                ["push", "--header", "Authorization: Bearer alice-rotated"] + db)
            #expect(rotated.stdout.contains("pushed: 0 acknowledged"), "\(rotated.stdout)")
            let outbox = try await BuiltBinary.slippers.run(
                ["outbox", "--header", "Authorization: Bearer alice-rotated"] + db)
            #expect(outbox.stderr.contains("(credentials other than these) has 1 write"), "\(outbox.stderr)")
            let doctor = try await BuiltBinary.slippers.run(["doctor"] + db)
            #expect(doctor.stdout.contains("has 1 pending write, sent only by a push with the credentials"))
            #expect(list.writes.isEmpty)

            let alicePush = try await BuiltBinary.slippers.run(["push"] + db + Self.alice)
            #expect(alicePush.stdout.contains("pushed: 1 acknowledged"), "\(alicePush.stdout)")
            #expect(list.writes.map(\.token) == ["alice-token"])
            #expect(list.itemJSON(user: "alice", id: 7).contains("alice's edit"))
            #expect(!list.itemJSON(user: "bob", id: 7).contains("alice's edit"))
        }
    }

    @Test func aPurgeLeavesNoneOfTheAccountsValuesInTheFile() async throws {
        try await Self.withAccountList { _, _, url in
            let directory = try TemporaryDirectory()
            let path = directory.path()
            let db = ["--db", path]
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db + Self.alice).status == 0)
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db + Self.bob).status == 0)
            #expect(
                try await BuiltBinary.slippers.run(
                    ["edit", url, "3", "--set", #"{"title": "alice draft"}"#] + db + Self.alice
                ).status == 0)
            #expect(try Self.fileBytes(path).contains("alice-secret-1"))

            let purge = try await BuiltBinary.slippers.run(["purge"] + db + Self.alice)
            #expect(purge.status == 0, "\(purge.stderr)")
            #expect(purge.stdout.contains("1 list, 30 items, 1 pending write"), "\(purge.stdout)")
            let bytes = try Self.fileBytes(path)
            #expect(!bytes.contains("alice-secret"))
            #expect(!bytes.contains("alice message"))
            #expect(!bytes.contains("alice draft"))
            #expect(bytes.contains("bob-secret-1"))
            let bobExport = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + db + Self.bob)
            #expect(try Self.secrets(bobExport.stdout).count == 30)
            let doctor = try await BuiltBinary.slippers.run(["doctor"] + db)
            #expect(doctor.status == 0, "\(doctor.stdout)")

            let everyone = try await BuiltBinary.slippers.run(["purge", "--all-accounts"] + db)
            #expect(everyone.status == 0, "\(everyone.stderr)")
            #expect(!(try Self.fileBytes(path).contains("bob-secret")))
            let refused = try await BuiltBinary.slippers.run(["purge"] + db)
            #expect(refused.status == 64)
        }
    }

    @Test(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(5)))
    func onPostgreSQLTwoTokensKeepTwoListsAndAPurgeRemovesOne() async throws {
        try await PostgresServer.with { postgres in
            try await Self.withAccountList { _, _, url in
                let db = ["--db", postgres.url(database: try await postgres.makeDatabase())]
                #expect(try await BuiltBinary.slippers.run(["sync", url] + db + Self.alice).status == 0)
                let bobSync = try await BuiltBinary.slippers.run(["sync", url] + db + Self.bob)
                #expect(bobSync.stdout.contains("synced 30 items"), "\(bobSync.stdout)")
                let bobExport = try await BuiltBinary.slippers.run(
                    ["export", url, "--format", "ndjson"] + db + Self.bob)
                #expect(try Self.secrets(bobExport.stdout) == Set((1...30).map { "bob-secret-\($0)" }))

                let purge = try await BuiltBinary.slippers.run(["purge"] + db + Self.alice)
                #expect(purge.stdout.contains("1 list, 30 items"), "\(purge.stdout) \(purge.stderr)")
                let aliceExport = try await BuiltBinary.slippers.run(["export", url] + db + Self.alice)
                #expect(aliceExport.status == 1)
                let lists = try await BuiltBinary.slippers.run(["lists", "--json"] + db)
                let rows = try #require(
                    try JSONSerialization.jsonObject(with: Data(lists.stdout.utf8)) as? [[String: Any]])
                #expect(rows.count == 1)
                let again = try await BuiltBinary.slippers.run(
                    ["export", url, "--format", "ndjson"] + db + Self.bob)
                #expect(try Self.secrets(again.stdout).count == 30)
            }
        }
    }

    /// The bytes of the cache file and of its write-ahead log, if any, as Latin-1 text to search.
    static func fileBytes(_ path: String) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) { bytes.append(wal) }
        return String(decoding: bytes.map { $0 < 128 ? $0 : 32 }, as: UTF8.self)
    }
}
