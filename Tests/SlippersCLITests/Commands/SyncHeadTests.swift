import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// `sync` of a complete list whose new items come first: read from the first page until a page
/// of items the cache holds unchanged.
@Suite struct SyncHeadTests {
    @Test func oneNewItemOnAListOfTwoThousandCostsAtMostThreeRequests() async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.drf)
            let first = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(first.status == 0, "\(first.stderr)")
            fixture.server.insertAtTop(count: 1)
            fixture.server.resetRequests()
            let again = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path(), "--newest-first"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(fixture.server.requestCount <= 3)
            #expect(
                again.stdout.contains("up to date from its first page: 1 new, 0 changed in 2 requests"),
                "\(again.stdout)")
            #expect(again.stdout.contains("2001 items cached"), "\(again.stdout)")
            let ids = try exportedIDs(try await export(url, directory))
            #expect(ids.first == 2_001)
            #expect(ids == fixture.server.listedIDs)

            // The list is recorded as newest first: a plain sync does the same.
            fixture.server.insertAtTop(count: 3)
            fixture.server.update(id: 2_001, title: "changed")
            fixture.server.resetRequests()
            let third = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(third.stdout.contains("3 new, 1 changed"), "\(third.stdout)")
            #expect(fixture.server.requestCount <= 3)
            #expect(try exportedIDs(try await export(url, directory)) == fixture.server.listedIDs)
        }
    }

    @Test func aListWithoutChangeCostsOneRequest() async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.drf)
            _ = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path(), "--newest-first"])
            fixture.server.resetRequests()
            let again = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("0 new, 0 changed in 1 request — 2000 items cached"), "\(again.stdout)")
            #expect(fixture.server.requestCount == 1)
        }
    }

    @Test func removedItemsLeaveTheListThroughARevalidation() async throws {
        try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let url = fixture.url(.drf)
            _ = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path(), "--newest-first"])
            fixture.server.insertAtTop(count: 1)
            fixture.server.remove(id: 1_000)
            let again = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(
                again.stdout.contains("the server announces 2000 items and the cache held 2001, so it was revalidated"),
                "\(again.stdout)")
            #expect(try exportedIDs(try await export(url, directory)) == fixture.server.listedIDs)
        }
    }

    @Test func anItemWithAPendingWriteNeverLeavesTheList() async throws {
        try await RunningFixture.with(itemCount: 200, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url(.drf)
            _ = try await BuiltBinary.slippers.run(["sync", url, "--newest-first"] + db)
            let edit = try await BuiltBinary.slippers.run(["edit", url, "120", "--set", #"{"title": "Mine"}"#] + db)
            #expect(edit.status == 0, "\(edit.stderr)")
            // The server removes the item edited here, and another: the list is revalidated.
            fixture.server.insertAtTop(count: 1)
            fixture.server.remove(id: 120)
            fixture.server.remove(id: 60)
            let again = try await BuiltBinary.slippers.run(["sync", url] + db)
            #expect(again.stdout.contains("so it was revalidated"), "\(again.stdout)")
            let ids = try exportedIDs(try await export(url, directory))
            #expect(Set(ids) == Set(fixture.server.listedIDs + [120]))
            let item = try await BuiltBinary.slippers.run(["get", url, "120"] + db)
            #expect(item.stdout.contains("Mine"), "\(item.stdout)")
        }
    }

    @Test func aListWhoseFirstPageIdsDecreaseIsTakenForNewestFirst() async throws {
        try await RunningFixture.with(itemCount: 200, pageSize: 50) { fixture in
            // 60 items above the first 200: the first page lists ids 260 down to 211.
            fixture.server.insertAtTop(count: 60)
            let directory = try TemporaryDirectory()
            let url = fixture.url(.drf)
            _ = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            fixture.server.insertAtTop(count: 1)
            let again = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(again.stdout.contains("up to date from its first page: 1 new"), "\(again.stdout)")
            #expect(try exportedIDs(try await export(url, directory)) == fixture.server.listedIDs)
        }
    }

    @Test func onPostgreSQLOneNewItemCostsAtMostThreeRequestsAndRemovalsRevalidateTheList() async throws {
        try await PostgresServer.with { server in
            try await RunningFixture.with(itemCount: 2_000, pageSize: 50) { fixture in
                let database = server.url(database: try await server.makeDatabase())
                let url = fixture.url(.drf)
                _ = try await BuiltBinary.slippers.run(["sync", url, "--db", database, "--newest-first"])
                fixture.server.insertAtTop(count: 1)
                fixture.server.resetRequests()
                let again = try await BuiltBinary.slippers.run(["sync", url, "--db", database])
                #expect(again.status == 0, "\(again.stderr)")
                #expect(again.stdout.contains("1 new, 0 changed"), "\(again.stdout)")
                #expect(fixture.server.requestCount <= 3)
                let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson", "--db", database])
                #expect(try exportedIDs(export.stdout) == fixture.server.listedIDs)

                fixture.server.remove(id: 1_000)
                let third = try await BuiltBinary.slippers.run(["sync", url, "--db", database])
                #expect(third.status == 0, "\(third.stderr)")
                #expect(third.stdout.contains("so it was revalidated"), "\(third.stdout)")
                let after = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson", "--db", database])
                #expect(try exportedIDs(after.stdout) == fixture.server.listedIDs)
            }
        }
    }

    private func export(_ url: String, _ directory: TemporaryDirectory) async throws -> String {
        try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson", "--db", directory.path()]).stdout
    }
}

/// A scheduled list whose new items come first: each re-run reads its head only.
@Suite struct ScheduledHeadTests {
    @Test func aWorkersReRunOfANewestFirstListCostsTwoRequestsForOneNewItem() async throws {
        try await FleetScene.with(itemCount: 2_000, pageSize: 50) { scene in
            let (fixture, database) = (scene.fixture, scene.database)
            let url = fixture.url(.drf)
            let enqueued = try await BuiltBinary.slippers.run(
                ["enqueue", "--every", "1s", "--newest-first", url] + database)
            #expect(enqueued.status == 0, "\(enqueued.stderr)")
            let first = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.2"] + database)
            #expect(first.stdout.contains("#1 synced 2000 items in 40 pages"), "\(first.stdout)")
            fixture.server.insertAtTop(count: 1)
            try await Task.sleep(for: .milliseconds(1_200))
            fixture.server.resetRequests()
            let again = try await BuiltBinary.slippers.run(["worker", "--until-empty", "--poll", "0.2"] + database)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(
                again.stdout.contains("up to date from its first page: 1 new, 0 changed in 2 requests"),
                "\(again.stdout)")
            #expect(fixture.server.requestCount == 2)
            let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson"] + database)
            #expect(try exportedIDs(export.stdout) == fixture.server.listedIDs)
        }
    }
}
