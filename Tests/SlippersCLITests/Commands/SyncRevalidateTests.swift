import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// `sync --revalidate`: a cached list walked with conditional requests, only changed pages rewritten.
@Suite struct SyncRevalidateTests {
    @Test func anUnchangedListIsConfirmedPageByPageAndAnEditRewritesOnlyItsPage() async throws {
        try await RunningFixture.with(itemCount: 230, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url()
            let first = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(first.status == 0, "\(first.stderr)")
            fixture.server.resetRequests()

            let unchanged = try await BuiltBinary.slippers.run(["sync", url, "--revalidate", "--db", directory.path()])
            #expect(unchanged.status == 0, "\(unchanged.stderr)")
            #expect(
                unchanged.stdout == "revalidated 5 pages of \(url) in \(directory.path()): "
                    + "5 unchanged, 0 changed, 0 new, 0 removed\n")
            #expect(fixture.server.requests.count == 5)
            #expect(fixture.server.requests.allSatisfy { $0.isConditional })

            fixture.server.update(id: 120, title: "edited")
            let edited = try await BuiltBinary.slippers.run(["sync", url, "--revalidate", "--db", directory.path()])
            #expect(edited.stdout.contains("4 unchanged, 1 changed, 0 new, 0 removed"))
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            #expect(try store.list(url)?.generation == 1)
            let type = try #require(try store.list(url)?.itemType)
            #expect(try store.item(type: type, key: .integer(120))?.item.json.count ?? 0 > 0)
        }
    }

    @Test(.enabled(if: PostgresServer.isAvailable))
    func onPostgreSQLAnUnchangedListIsConfirmedPageByPageAndAnEditRewritesOnlyItsPage() async throws {
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: 230, pageSize: 50) { fixture in
                let database = server.url(database: try await server.makeDatabase())
                let url = fixture.url()
                let first = try await BuiltBinary.slippers.run(["sync", url, "--db", database])
                #expect(first.status == 0, "\(first.stderr)")
                fixture.server.resetRequests()

                let unchanged = try await BuiltBinary.slippers.run(["sync", url, "--revalidate", "--db", database])
                #expect(unchanged.status == 0, "\(unchanged.stderr)")
                #expect(
                    unchanged.stdout.hasPrefix("revalidated 5 pages of \(url) in postgres://"), "\(unchanged.stdout)")
                #expect(unchanged.stdout.hasSuffix(": 5 unchanged, 0 changed, 0 new, 0 removed\n"))
                #expect(fixture.server.requests.count == 5)
                #expect(fixture.server.requests.allSatisfy { $0.isConditional })

                fixture.server.update(id: 120, title: "edited")
                let edited = try await BuiltBinary.slippers.run(["sync", url, "--revalidate", "--db", database])
                #expect(edited.stdout.contains("4 unchanged, 1 changed, 0 new, 0 removed"), "\(edited.stdout)")
                let item = try await BuiltBinary.slippers.run(["get", url, "120", "--db", database])
                #expect(item.stdout.contains("edited"), "\(item.stdout)")
                let lists = try await BuiltBinary.slippers.run(["lists", "--json", "--db", database])
                #expect(lists.stdout.contains(#""generation" : 1"#), "\(lists.stdout)")
            }
        }
    }

    @Test(.enabled(if: PostgresServer.isAvailable))
    func aListQueuedWithRevalidateIsRevalidatedByTheWorker() async throws {
        try await FleetScene.with(itemCount: 230, pageSize: 50) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let url = fixture.url()
            let synced = try await BuiltBinary.slippers.run(["sync", url] + database)
            #expect(synced.status == 0, "\(synced.stderr)")
            fixture.server.update(id: 120, title: "edited")
            let enqueued = try await BuiltBinary.slippers.run(["enqueue", "--revalidate", url] + database)
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            let worker = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.2"] + database)
            #expect(worker.status == 0, "\(worker.stderr)")
            #expect(worker.stdout.contains("4 unchanged, 1 changed, 0 new, 0 removed"), "\(worker.stdout)")
        }
    }

    @Test func revalidateAndRefreshTogetherIsAUsageError() async throws {
        let outcome = try await BuiltBinary.slippers.run([
            "sync", "http://127.0.0.1:1/page", "--revalidate", "--refresh", "--db", "/nonexistent/x.sqlite",
        ])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("--revalidate and --refresh cannot be used together."))
    }

    @Test func pagesShowsEachPagesFreshness() async throws {
        try await RunningFixture.with(itemCount: 100, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            _ = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            let outcome = try await BuiltBinary.slippers.run(["pages", fixture.url(), "--db", directory.path()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let header = try #require(outcome.stdoutLines.first)
            #expect(header.contains("verified"))
            #expect(header.contains("lifetime"))
            #expect(header.contains("validator"))
            #expect(outcome.stdoutLines.dropFirst(2).allSatisfy { $0.contains(" etag ") })
        }
    }

    @Test func noStorePagesAreNotCachedUnlessAsked() async throws {
        try await RunningFixture.with(itemCount: 100, pageSize: 50) { fixture in
            fixture.server.setResponseHeaders(["Cache-Control": "no-store"])
            let directory = try TemporaryDirectory()
            let refused = try await BuiltBinary.slippers.run(["sync", fixture.url(), "--db", directory.path()])
            #expect(refused.status == 1)
            #expect(refused.stderrLines.count == 1)
            #expect(refused.stderr.contains("no-store"))
            let kept = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--keep-no-store", "--db", directory.path(),
            ])
            #expect(kept.status == 0, "\(kept.stderr)")
            #expect(kept.stdout.contains("synced 100 items in 2 pages"))
        }
    }
}
