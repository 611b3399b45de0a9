import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

@Suite struct SyncCommandTests {
    @Test func pagesAListIntoTheCacheAndPrintsOneSummaryLineOffATerminal() async throws {
        try await RunningFixture.with { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.isEmpty)
            #expect(
                outcome.stdout == "synced 230 items in 5 pages of \(fixture.url()) into \(directory.path()) "
                    + "— end reached, 230 items cached\n")
            let export = try await BuiltBinary.slippers.run([
                "export", fixture.url(), "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...230))
        }
    }

    @Test(arguments: DetectCommandTests.detectedRoutes)
    func detectsEachPaginationStyle(route: FixtureServer.Route) async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run(["sync", fixture.url(route), "--db", directory.path()])
            #expect(outcome.status == 0, "\(route): \(outcome.stderr)")
            // A list that announces neither its end nor its page size ends at the empty page after its last.
            let pages = route == .fieldFilters ? 6 : 5
            #expect(outcome.stdout.contains("synced 95 items in \(pages) pages"), "\(route): \(outcome.stdout)")
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            let list = try #require(try store.lists().first)
            #expect(list.endReached)
            var ids: [Int] = []
            try store.forEachItem(in: list.key) { item in
                switch item.key {
                case .integer(let id): ids.append(id)
                // Items keyed by a name: `@user<id>:example.org`.
                case .string(let name): ids.append(Int(name.dropFirst("@user".count).prefix { $0.isNumber }) ?? 0)
                }
            }
            #expect(ids == (route.listsNewestFirst ? Array((1...95).reversed()) : Array(1...95)), "\(route)")
        }
    }

    @Test func itemsPathIdFieldAndStyleCanBeGiven() async throws {
        // Detection finds the body's only array of objects, wherever it sits.
        try await RunningFixture.with(itemCount: 60, pageSize: 25, itemsKeyPath: "payload.list") { fixture in
            let detected = try TemporaryDirectory()
            let found = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", detected.path()])
            #expect(found.status == 0, "\(found.stderr)")
            #expect(found.stdout.hasPrefix("synced 60 items in 3 pages"), "\(found.stdout)")
            fixture.server.resetRequests()
            let directory = try TemporaryDirectory()
            let given = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--style", "pageNumber", "--items-path", "payload.list", "--id-field", "id",
                "--page-size", "10", "--item-type", "Post", "--db", directory.path(),
            ])
            #expect(given.status == 0, "\(given.stderr)")
            #expect(given.stdout.hasPrefix("synced 60 items in 6 pages"))
            let requests = fixture.server.requests.filter { $0.query["per_page"] != nil }
            #expect(requests.allSatisfy { $0.query["per_page"] == "10" })
            let get = try await BuiltBinary.slippers.run(["get", "Post", "60", "--db", directory.path()])
            #expect(get.status == 0)
        }
    }

    @Test func maxPagesStopsARunAndTheNextRunResumes() async throws {
        try await RunningFixture.with { fixture in
            let directory = try TemporaryDirectory()
            let first = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--max-pages", "2", "--db", directory.path(),
            ])
            #expect(first.status == 0)
            #expect(first.stdout.hasPrefix("synced 100 items in 2 pages of "))
            #expect(first.stdout.hasSuffix("— stopped after --max-pages 2; run again to continue\n"))
            fixture.server.resetRequests()
            let second = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            #expect(second.status == 0)
            #expect(second.stdout.hasPrefix("synced 130 items in 3 pages (resumed after 2 cached pages) of "))
            // Asked for several at once, so in any order.
            #expect(fixture.server.requests.compactMap { $0.query["page"] }.sorted() == ["3", "4", "5"])

            fixture.server.resetRequests()
            let third = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            #expect(third.status == 0)
            #expect(third.stdout.contains("is complete in"))
            #expect(fixture.server.requestCount == 0)
        }
    }

    @Test func refreshStartsAgainAtTheFirstPageWithoutDuplicates() async throws {
        try await RunningFixture.with { fixture in
            let directory = try TemporaryDirectory()
            _ = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            fixture.server.insertAtTop(count: 3)
            let refresh = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--refresh", "--db", directory.path(),
            ])
            #expect(refresh.status == 0, "\(refresh.stderr)")
            #expect(refresh.stdout.hasPrefix("synced 233 items in 5 pages of "))
            let export = try await BuiltBinary.slippers.run([
                "export", fixture.url(), "--format", "ndjson", "--db", directory.path(),
            ])
            let ids = try exportedIDs(export.stdout)
            #expect(ids == [233, 232, 231] + Array(1...230))
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            #expect(try store.list(fixture.url())?.generation == 2)
        }
    }

    @Test func headersAreSentButNeverStored() async throws {
        let secret = "SECRET-7f3a9c"
        try await RunningFixture.with(bearerToken: secret) { fixture in
            let directory = try TemporaryDirectory()
            let refused = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            #expect(refused.status == 1)
            #expect(refused.stderrLines.count == 1)
            #expect(refused.stderr.hasPrefix("slippers: HTTP 401"))
            #expect(refused.stderr.contains("give credentials with --header 'Authorization: Bearer TOKEN'"))

            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--header", "Authorization: Bearer \(secret)", "--db", directory.path(),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(!outcome.stdout.contains(secret))
            #expect(fixture.server.requests.last?.authorization == "Bearer \(secret)")
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
                let bytes = try contents(of: directory.path(name))
                #expect(bytes.range(of: Data("SECRET".utf8)) == nil, "\(name)")
            }
            let lists = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
            #expect(!lists.stdout.contains("SECRET"))
            #expect(!lists.stdout.contains("Authorization"))
        }
    }

    @Test func aMalformedHeaderIsAUsageErrorThatDoesNotEchoIt() async throws {
        let outcome = try await BuiltBinary.slippers.run(["sync", "http://127.0.0.1:1/x", "--header", "Bearer SECRET"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--header takes 'Name: value'"))
        #expect(!outcome.stderr.contains("SECRET"))
    }

    @Test(arguments: ["not a url", "ftp://example.com/list", "http://", "/just/a/path"])
    func aBadURLIsAUsageError(url: String) async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("Not an http or https URL: \(url)"))
        #expect(!fileExists(directory.path()))
    }

    @Test func anUnreachableServerIsOneLine() async throws {
        let fixture = try await RunningFixture.start()
        let url = fixture.url()
        await fixture.stop()
        let directory = try TemporaryDirectory()
        let outcome = try await BuiltBinary.slippers.run([
            "sync", url, "--retries", "0", "--retry-for", "0", "--db", directory.path(),
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderrLines.count == 1)
        #expect(outcome.stderr.hasPrefix("slippers: Cannot connect to the server (GET \(url)"))
    }

    @Test func aNonJSONResponseIsOneLineAndKeepsTheCommittedPages() async throws {
        try await RunningFixture.with { fixture in
            let directory = try TemporaryDirectory()
            // Two good answers, then an HTML page where the third page should be: one page at a time,
            // so that the third request to arrive is the third page's.
            fixture.server.inject(.delay(.zero), count: 2)
            fixture.server.inject(.status(200, body: "<html><body>Maintenance</body></html>"))
            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--concurrency", "1", "--db", directory.path(),
            ])
            #expect(outcome.status == 1)
            #expect(outcome.stderrLines.count == 1)
            #expect(
                outcome.stderr.hasPrefix(
                    "slippers: Cannot decode the response (\(fixture.url(query: ["page": "3", "per_page": "50"]))): "))
            #expect(outcome.stderr.contains("<html>"))
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            #expect(try store.list(fixture.url())?.currentPageCount == 2)
            try store.close()
            let again = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            #expect(again.stdout.hasPrefix("synced 130 items in 3 pages (resumed after 2 cached pages)"))
        }
    }

    @Test func anHTTPErrorAndANonAdvancingServerAreOneLine() async throws {
        try await RunningFixture.with { fixture in
            let directory = try TemporaryDirectory()
            fixture.server.inject(.status(503, body: #"{"error":"down"}"#))
            let status = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--retries", "0", "--retry-for", "0", "--db", directory.path(),
            ])
            #expect(status.status == 1)
            #expect(status.stderrLines == ["slippers: HTTP 503 (GET \(fixture.url())): {\"error\":\"down\"}"])

            let cursor = fixture.url(.cursor)
            fixture.server.inject(.delay(.zero), count: 1)
            fixture.server.inject(.nonAdvancing, count: 5)
            let looping = try await BuiltBinary.slippers.run(["sync", cursor, "--db", directory.path()])
            #expect(looping.status == 1)
            #expect(looping.stderrLines.count == 1)
            #expect(looping.stderr.contains("instead of looping"))
        }
    }

    @Test func aStyleThatContradictsTheStoredOneNeedsRefresh() async throws {
        try await RunningFixture.with { fixture in
            let directory = try TemporaryDirectory()
            _ = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--max-pages", "1", "--db", directory.path(),
            ])
            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--style", "offset", "--db", directory.path(),
            ])
            #expect(outcome.status == 1)
            #expect(
                outcome.stderrLines == [
                    "slippers: \"\(fixture.url())\" was paged with --style pageNumber, not offset; add --refresh to start it again with offset"
                ])
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalAProgressBarIsRedrawnOnStderr() async throws {
        try await RunningFixture.with { fixture in
            let directory = try TemporaryDirectory()
            // script(1) gives the command a terminal; stdout goes to a file, so only stderr is the terminal.
            let command = [
                BuiltBinary.slippers.url.path, "sync", "'\(fixture.url())'", "--db", directory.path(),
                ">", directory.path("stdout.txt"),
            ].joined(separator: " ")
            let terminal = try await BuiltBinary(url: URL(fileURLWithPath: "/usr/bin/script"))
                .run(["-q", "-e", "-c", command, "/dev/null"])
            #expect(terminal.status == 0, "\(terminal.stdout)")
            #expect(terminal.stdout.contains("\r[##"))
            #expect(terminal.stdout.contains("230/230 items  5 pages"))
            #expect(terminal.stdout.contains("items/s"))
            let summary = try String(contentsOfFile: directory.path("stdout.txt"), encoding: .utf8)
            #expect(summary.hasPrefix("synced 230 items in 5 pages"))
        }
    }

    @Test func twoHostsServingTheSamePathKeepTheirOwnItems() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { a in
            try await RunningFixture.with(itemCount: 30, pageSize: 10) { b in
                #expect(b.server.update(id: 1, title: "from b"))
                let directory = try TemporaryDirectory()
                for fixture in [a, b] {
                    let outcome = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
                    #expect(outcome.status == 0, "\(outcome.stderr)")
                }
                let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
                let lists = try store.lists()
                #expect(Set(lists.map(\.itemType)).count == 2)
                #expect(lists.allSatisfy { $0.itemType.hasPrefix("page@http://127.0.0.1:") })
                #expect(lists.allSatisfy { $0.itemCount == 30 })
                let first = try #require(try store.cachedList(a.url()))
                let second = try #require(try store.cachedList(b.url()))
                #expect(first.items[0].json != second.items[0].json)
                #expect(String(decoding: second.items[0].json, as: UTF8.self).contains("from b"))
                #expect(try store.stats().items == 60)
            }
        }
    }

    @Test func anOffsetListThatShiftsBetweenRunsIsReadAgainAndEndsWithEveryItem() async throws {
        try await RunningFixture.with(itemCount: 230, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.offset)
            let first = try await BuiltBinary.slippers.run(["sync", url, "--max-pages", "1", "--db", directory.path()])
            #expect(first.status == 0, "\(first.stderr)")
            // Ten new items at the top push ten of page 0's items onto page 1.
            fixture.server.insertAtTop(count: 10)
            let rest = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            // The 10 new items came before the page saved first: the total changed since the first run, so
            // the list is read again and they join the cache.
            #expect(rest.status == 0, "\(rest.stderr)")
            #expect(
                rest.stdout.hasPrefix(
                    "synced 180 items in 4 pages (resumed after 1 cached page) (10 repeated ids stored once) "
                        + "(the list changed while it was read; read 5 pages again and found 10 items not cached)"),
                "\(rest.stdout)")
            #expect(rest.stdout.hasSuffix("— end reached, 240 items cached\n"))
            let lists = try await BuiltBinary.slippers.run(["lists", "--json", "--db", directory.path()])
            #expect(lists.stdout.contains(#""item_count" : 240"#), "\(lists.stdout)")
            let export = try await BuiltBinary.slippers.run([
                "export", url, "--format", "ndjson", "--db", directory.path(),
            ])
            let ids = try exportedIDs(export.stdout)
            #expect(ids.count == 240)
            #expect(Set(ids) == Set(1...240))
        }
    }

    @Test(.enabled(if: ScratchMount.isAvailable, "needs root and tmpfs mounts"))
    func aFullDiskIsOneLineKeepsTheSavedPagesAndTheNextRunCompletesTheList() async throws {
        try await RunningFixture.with(itemCount: 20000, pageSize: 100) { fixture in
            let mount = try ScratchMount(megabytes: 1)
            let path = mount.directory + "/cache.sqlite"
            let full = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", path])
            #expect(full.status == 1)
            #expect(
                full.stderrLines == [
                    "slippers: Disk full: cannot write the cache \(path); the pages saved before stay saved, "
                        + "free some space and run again to continue"
                ])
            let saved = try #require(try SQLiteCache(path: path, mode: .readOnly).list(fixture.url()))
            #expect(saved.currentPageCount > 0 && saved.currentPageCount < 200)
            let firstRun = fixture.server.requestCount

            try mount.resize(megabytes: 64)
            let rest = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", path])
            #expect(rest.status == 0, "\(rest.stderr)")
            #expect(rest.stdout.contains("(resumed after \(saved.currentPageCount) cached page"))
            // The second run asked for no page the first had saved, and for each other page once. The
            // requests the first run had in flight (at most 6, the default concurrency, after its last
            // saved page) may reach the server late and be counted twice.
            let asked = fixture.server.requests.dropFirst(firstRun).compactMap { $0.query["page"].flatMap(Int.init) }
            let fetches = Dictionary(grouping: asked) { $0 }.mapValues(\.count)
            #expect(fetches.keys.sorted() == Array((saved.currentPageCount + 1)...200))
            #expect(fetches.filter { $0.value > 1 }.keys.allSatisfy { $0 <= saved.currentPageCount + 7 })
            let export = try await BuiltBinary.slippers.run([
                "export", fixture.url(), "--format", "ndjson", "--db", path,
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...20000))
            let doctor = try await BuiltBinary.slippers.run(["doctor", "--db", path])
            #expect(doctor.status == 0)
        }
    }
}
