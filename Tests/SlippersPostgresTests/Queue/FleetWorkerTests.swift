import Foundation
import Slippers
import SlippersPostgres
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// The fleet in the library, on a real PostgreSQL server the test starts: requests through the
/// queue, workers that never share a list, a dead worker's list taken over from its committed
/// pages, requests this release does not run, scheduled lists that come due again or back off, and
/// the lease and fetch-ahead protocol of a list.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct FleetWorkerTests {
    @Test func aRequestRoundTripsThroughTheQueueAndIsQueuedOnce() async throws {
        try await withCache { cache, _, _ in
            var request = SyncRequest(url: "https://api.example.com/posts?sort=id")
            request.style.pageSize = 100
            request.style.graphQL = "query { posts { id } }"
            request.limits = SyncRequest.Limits(maxPages: 3, maxItems: 250, stallLimit: 5)
            request.itemType = "Post"
            request.keepsNoStorePages = true
            request.network = SyncRequest.Network(
                connectTimeout: 2, maxBodySize: 1 << 20, allowedOrigins: ["https://cdn.example.com"], retries: 1,
                retryFor: 0, concurrency: 2)
            request.schedule = SyncRequest.Schedule(every: 3_600)
            request.incremental = SyncRequest.Incremental(
                field: "updated_at", sinceParameter: "since", lookback: 60, initialValue: "2026-01-01")
            let other = SyncRequest(url: "https://api.example.com/posts?sort=id")
            let ids = try await cache.enqueue([request, other])
            #expect(ids.count == 2 && ids[0] != ids[1])
            #expect(try await cache.enqueue([request]) == [ids[0]])
            let listed = try await cache.queuedLists()
            #expect(listed.map(\.request) == [request, other])
            let claim = try #require(try await cache.claim(worker: "w", lease: .seconds(30)))
            #expect(claim.id == ids[0])
            #expect(claim.request == request)
            #expect(!claim.isTakeover)
        }
    }

    @Test func aRequestThatCannotRunOrCarriesACredentialIsNotQueued() async throws {
        try await withCache { cache, _, _ in
            var both = SyncRequest(url: "https://api.example.com/posts")
            both.style.graphQL = "query { posts { id } }"
            both.style.postBody = "{}"
            let contradiction = await #expect(throws: SyncRequestError.self) { try await cache.enqueue([both]) }
            #expect(contradiction?.member == "style.postBody")
            let secret = SyncRequest(url: "https://api.example.com/posts?access_token=s3cret")
            let credential = await #expect(throws: SyncRequestError.self) { try await cache.enqueue([secret]) }
            #expect(credential?.member == "url")
            let queued = try await cache.queuedLists()
            #expect(queued.isEmpty)
        }
    }

    @Test func twoWorkersNeverTakeTheSameList() async throws {
        try await withCache { cache, location, _ in
            let requests = (1...24).map { SyncRequest(url: "https://api.example.com/list/\($0)") }
            let ids = try await cache.enqueue(requests)
            let second = try await PostgresCache.open(location)
            defer { Task { try? await second.close() } }
            let taken = Locked<[String: [Int64]]>([:])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (name, queue) in [("a", cache), ("b", second)] {
                    var worker = FleetWorker(cache: queue, name: name)
                    worker.concurrency = 3
                    worker.untilEmpty = true
                    worker.poll = .milliseconds(20)
                    let configured = worker
                    group.addTask {
                        try await configured.run { job in
                            taken.withLock { $0[name, default: []].append(job.id) }
                            try await Task.sleep(for: .milliseconds(10))
                            return "synced \(job.request.url)"
                        }
                    }
                }
                try await group.waitForAll()
            }
            let byWorker = taken.withLock { $0 }
            let all = byWorker.values.flatMap { $0 }
            #expect(all.sorted() == ids.sorted())
            #expect(Set(all).count == all.count)
            let lists = try await cache.queuedLists()
            #expect(lists.allSatisfy { $0.state == .done && $0.lastResult == "synced \($0.url)" })
        }
    }

    @Test func aDeadWorkersListIsTakenOverAfterItsLeaseAndResumedFromItsCommittedPages() async throws {
        try await withCache { cache, _, _ in
            let request = SyncRequest(url: "https://api.example.com/numbers")
            _ = try await cache.enqueue([request])
            let descriptor = ListDescriptor(key: request.url, itemType: "Number")
            // A worker takes the list, commits three pages and dies: its lease is never renewed.
            let dead = try #require(try await cache.claim(worker: "dead", lease: .seconds(1)))
            let source = NumberedSource(pageCount: 8)
            let first = ListSync(storage: cache, source: source, list: descriptor)
            #expect(try await first.run(maxPages: 3).pagesFetched == 3)
            // Its last renewal: the lease runs out now.
            #expect(try await cache.renewLease(of: dead.id, worker: "dead", lease: .zero))

            let events = Locked<[FleetWorker.Event]>([])
            let resumed = Locked<SyncProgress?>(nil)
            var worker = FleetWorker(cache: cache, name: "alive")
            worker.untilEmpty = true
            worker.poll = .milliseconds(50)
            worker.onEvent = { event in events.withLock { $0.append(event) } }
            let again = NumberedSource(pageCount: 8)
            try await worker.run { job in
                #expect(job.isTakeover)
                await job.recordList(descriptor.key)
                let progress = try await ListSync(storage: job.cache, source: again, list: descriptor)
                    .run()
                resumed.withLock { $0 = progress }
                return "synced \(progress.pagesFetched) pages"
            }
            let progress = try #require(resumed.withLock { $0 })
            #expect(progress.startIndex == 3)
            #expect(progress.endReached)
            #expect(again.pagesFetched == [4, 5, 6, 7, 8])
            #expect(events.withLock { $0 }.contains(.takenOver(id: dead.id)))
            #expect(events.withLock { $0 }.contains(.synced(id: dead.id, summary: "synced 5 pages")))
            let list = try #require(try await cache.queuedLists().first)
            #expect(list.state == .done)
            #expect(list.attempts == 2)
            #expect(list.pages == 8)
            #expect(try await cache.list(descriptor.key)?.itemCount == 40)
        }
    }

    @Test func aRequestWithIncrementalSettingsIsSyncedAsAnyOtherAndAScheduledOneComesDueAgain() async throws {
        try await withCache { cache, _, _ in
            var scheduled = SyncRequest(url: "https://api.example.com/scheduled")
            scheduled.schedule = SyncRequest.Schedule(every: 60)
            var incremental = SyncRequest(url: "https://api.example.com/incremental")
            incremental.incremental = SyncRequest.Incremental(field: "updated_at", sinceParameter: "since")
            incremental.schedule = SyncRequest.Schedule(every: 60)
            let plain = SyncRequest(url: "https://api.example.com/plain")
            _ = try await cache.enqueue([scheduled, incremental, plain])
            var worker = FleetWorker(cache: cache, name: "w")
            worker.untilEmpty = true
            worker.poll = .milliseconds(20)
            let synced = Locked<[String]>([])
            try await worker.run { job in
                synced.withLock { $0.append(job.request.url) }
                return "synced"
            }
            #expect(synced.withLock { $0 } == [scheduled.url, incremental.url, plain.url])
            let lists = try await cache.queuedLists()
            // The scheduled lists are due again later, incremental or not; the plain one is done.
            #expect(lists.map(\.state) == [.pending, .pending, .done])
            #expect(lists[1].request.incremental?.field == "updated_at")
            #expect(lists[0].every == 60 && lists[1].every == 60 && lists[2].every == nil)
        }
    }

    @Test func aScheduledListIsSyncedThenDueAgainAfterItsIntervalAndNotTakenBefore() async throws {
        try await withCache { cache, _, _ in
            var request = SyncRequest(url: "https://api.example.com/every")
            request.schedule = SyncRequest.Schedule(every: 6)
            let plain = SyncRequest(url: "https://api.example.com/once")
            let ids = try await cache.enqueue([request, plain])
            var worker = FleetWorker(cache: cache, name: "w")
            worker.untilEmpty = true
            worker.poll = .milliseconds(20)
            let synced = Locked<[Int64]>([])
            let started = Date()
            // Nothing is due once both ran: the worker stops, though the scheduled list comes due in 6 s.
            try await worker.run { job in
                synced.withLock { $0.append(job.id) }
                return "synced"
            }
            let finished = Date()
            #expect(synced.withLock { $0 } == ids)
            #expect(finished.timeIntervalSince(started) < 5.4)
            var lists = try await cache.queuedLists()
            #expect(lists.map(\.state) == [.pending, .done])
            #expect(lists[1].dueAt == nil)
            let due = try #require(lists[0].dueAt)
            #expect(due >= started.addingTimeInterval(6 * 0.9) && due <= finished.addingTimeInterval(6 * 1.1))
            #expect(lists[0].lastResult == "synced" && lists[0].failures == 0)
            #expect(try await !cache.hasListsDueOrRunning())
            // Not taken before it is due, taken once it is.
            #expect(
                try await cache.claim(worker: "early", lease: .seconds(30), now: due.addingTimeInterval(-0.1)) == nil)
            try await Task.sleep(for: .seconds(max(0, due.timeIntervalSinceNow) + 0.05))
            try await worker.run { job in
                synced.withLock { $0.append(job.id) }
                return "synced again"
            }
            #expect(synced.withLock { $0 } == ids + [ids[0]])
            lists = try await cache.queuedLists()
            #expect(lists[0].state == .pending && lists[0].attempts == 2 && lists[0].lastResult == "synced again")
            #expect(try #require(lists[0].dueAt) > due)
        }
    }

    @Test func aScheduledListWhoseServerKeepsFailingBacksOffRatherThanSpinning() async throws {
        try await withCache { cache, _, _ in
            var request = SyncRequest(url: "https://api.example.com/failing")
            request.schedule = SyncRequest.Schedule(every: 3_600)
            let id = try #require(try await cache.enqueue([request]).first)
            let start = Date(timeIntervalSince1970: 1_000_000)
            var now = start
            var waits: [TimeInterval] = []
            for failure in 1...8 {
                let claim = try #require(try await cache.claim(worker: "w", lease: .seconds(30), now: now))
                #expect(claim.id == id)
                try await cache.finish(
                    id, worker: "w", result: nil, error: "HTTP 503", schedule: request.schedule, now: now)
                let list = try #require(try await cache.queuedLists().first)
                #expect(list.state == .pending && list.failures == failure && list.attempts == failure)
                #expect(list.lastError == "HTTP 503")
                let due = try #require(list.dueAt)
                waits.append(due.timeIntervalSince(now))
                #expect(abs(due.timeIntervalSince(now) - request.schedule!.backoff(afterFailures: failure)) < 0.001)
                // Not taken again before its backoff ends.
                #expect(try await cache.claim(worker: "w", lease: .seconds(30), now: due.addingTimeInterval(-1)) == nil)
                now = due
            }
            #expect(waits == [30, 60, 120, 240, 480, 960, 1_920, 3_600])
            // A run that succeeds forgets the failures and waits its interval again.
            _ = try #require(try await cache.claim(worker: "w", lease: .seconds(30), now: now))
            try await cache.finish(id, worker: "w", result: "ok", error: nil, schedule: request.schedule, now: now)
            let list = try #require(try await cache.queuedLists().first)
            #expect(list.failures == 0 && list.lastError == nil && list.state == .pending)
            let interval = try #require(list.dueAt).timeIntervalSince(now)
            #expect(interval >= 3_600 * 0.9 && interval <= 3_600 * 1.1)
            // Enqueued again: due now.
            _ = try await cache.enqueue([request])
            #expect(try await cache.queuedLists().first?.dueAt == nil)
        }
    }

    @Test func aFailingScheduledListUnderAWorkerIsDueAgainAfterItsBackoffNotAtOnce() async throws {
        try await withCache { cache, _, _ in
            var request = SyncRequest(url: "https://api.example.com/down")
            request.schedule = SyncRequest.Schedule(every: 10)
            _ = try await cache.enqueue([request])
            var worker = FleetWorker(cache: cache, name: "w")
            worker.untilEmpty = true
            worker.poll = .milliseconds(20)
            let runs = Locked(0)
            struct Down: Error {}
            try await worker.run { _ in
                runs.withLock { $0 += 1 }
                throw Down()
            }
            #expect(runs.withLock { $0 } == 1)
            let list = try #require(try await cache.queuedLists().first)
            #expect(list.state == .pending && list.failures == 1 && list.lastError != nil)
            // The backoff (30 s) is capped at the list's interval (10 s ± 10 %): due then, not at once.
            let wait = try #require(list.dueAt).timeIntervalSinceNow
            #expect(wait > 4 && wait <= 11)
        }
    }

    @Test func aScheduleComesDueWithinItsJitterAndBacksOffUpToItsCaps() {
        let schedule = SyncRequest.Schedule(every: 900)
        let finished = Date(timeIntervalSince1970: 0)
        #expect(schedule.nextRun(after: finished, spread: -1).timeIntervalSince1970 == 810)
        #expect(schedule.nextRun(after: finished, spread: 1).timeIntervalSince1970 == 990)
        #expect(schedule.nextRun(after: finished, spread: 0).timeIntervalSince1970 == 900)
        for _ in 0..<100 {
            let next = schedule.nextRun(after: finished).timeIntervalSince1970
            #expect(next >= 810 && next <= 990)
        }
        #expect((1...7).map { schedule.backoff(afterFailures: $0) } == [30, 60, 120, 240, 480, 900, 900])
        let daily = SyncRequest.Schedule(every: 86_400)
        #expect(daily.backoff(afterFailures: 100) == 3_600)
    }

    @Test func aQueueOfSyncArgumentsIsConvertedToRequestsWhenTheCacheIsOpened() async throws {
        try await withCache { cache, location, server in
            try await cache.close()
            let database = location.database
            // The queue as migration 0005 left it: sync arguments, no requests.
            try await server.psql(
                """
                SET search_path TO slippers;
                DROP INDEX queue_by_request;
                ALTER TABLE queue DROP COLUMN request;
                ALTER TABLE queue ADD COLUMN options TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE queue ADD UNIQUE (url, options);
                DROP TABLE settings;
                DROP TABLE rate_budgets;
                DROP TABLE watermarks;
                ALTER TABLE collections DROP COLUMN newest_first;
                DELETE FROM schema_migrations WHERE identifier >= '0006';
                INSERT INTO queue (url, options, enqueued_at, updated_at) VALUES
                    ('https://api.example.com/a', '["--style","page","--page-size=100","--max-pages","3","--refresh","--allow-origin","https://cdn.example.com","--max-body-size","2MB"]', 1, 1),
                    ('https://api.example.com/b', '[]', 2, 2),
                    ('https://api.example.com/c', '["--frobnicate","1"]', 3, 3),
                    ('https://api.example.com/b', '["--verbose"]', 4, 4);
                """, database: database)
            let opened = try await PostgresCache.open(location)
            defer { Task { try? await opened.close() } }
            #expect(try await opened.appliedMigrations() == PostgresCache.knownMigrations)
            let lists = try await opened.queuedLists()
            // The last row is the second one queued again: its list goes once.
            #expect(
                lists.map(\.url) == [
                    "https://api.example.com/a", "https://api.example.com/b", "https://api.example.com/c",
                ])
            var expected = SyncRequest(url: "https://api.example.com/a")
            expected.style.name = "pageNumber"
            expected.style.pageSize = 100
            expected.limits.maxPages = 3
            expected.refresh = true
            expected.network.allowedOrigins = ["https://cdn.example.com"]
            expected.network.maxBodySize = 2 << 20
            #expect(lists[0].request == expected)
            #expect(lists[0].state == .pending)
            #expect(lists[1].request == SyncRequest(url: "https://api.example.com/b"))
            #expect(lists[2].state == .failed)
            #expect(lists[2].lastError?.contains("--frobnicate is not a sync option") == true, "\(lists[2])")
            let columns = try await server.psql(
                "SELECT string_agg(column_name, ',' ORDER BY column_name) FROM information_schema.columns "
                    + "WHERE table_schema = 'slippers' AND table_name = 'queue' AND column_name IN ('options', 'request')",
                database: database)
            #expect(columns == "request")
        }
    }

    @Test func listSyncedByTwoWorkersAtOnceIsWalkedByOneAndEachPageFetchedOnce() async throws {
        try await withCache { cache, location, _ in
            let descriptor = ListDescriptor(key: "https://api.example.com/shared", itemType: "Number")
            let list = SharedList(list: descriptor.key, fingerprint: "same")
            let second = try await PostgresCache.open(location)
            defer { Task { try? await second.close() } }
            let sources = [
                NumberedSource(pageCount: 30, delay: .milliseconds(20)),
                NumberedSource(pageCount: 30, delay: .milliseconds(20)),
            ]
            let waited = Locked(0)
            let synced = try await withThrowingTaskGroup(
                of: PostgresCache.SharedSync<SyncProgress>.self
            ) { group in
                for (index, storage) in [cache, second].enumerated() {
                    group.addTask {
                        // The second starts once the first holds the lease.
                        if index == 1 { try await Task.sleep(for: .milliseconds(150)) }
                        return try await storage.syncingSharedList(
                            list, source: sources[index], plannedStyle: nil, refresh: false, concurrency: 2,
                            onWait: { waited.withLock { $0 += 1 } }
                        ) { shared in
                            var sync = ListSync(storage: storage, source: shared, list: descriptor)
                            sync.concurrency = AdaptiveConcurrency(maximum: 1)
                            return try await sync.run()
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(waited.withLock { $0 } == 1)
            let fetched = sources.flatMap(\.pagesFetched)
            #expect(Set(fetched).count == fetched.count, "\(sources.map(\.pagesFetched))")
            #expect(Set(fetched) == Set(1...30))
            #expect(synced.map(\.pagesFetchedAhead).reduce(0, +) == synced.map(\.pagesFetchedByOthers).reduce(0, +))
            #expect(synced.contains { $0.result.pagesFetched == 0 && $0.result.endReached })
            #expect(try await cache.list(descriptor.key)?.itemCount == 150)
        }
    }

    @Test func aListStartedMeanwhileWithAnotherStyleIsNotContinued() async throws {
        try await withCache { cache, _, _ in
            let descriptor = ListDescriptor(key: "https://api.example.com/styled", itemType: "Number")
            var started = descriptor
            started.style = #"{"kind":"offset"}"#
            _ = try await ListSync(storage: cache, source: NumberedSource(pageCount: 4), list: started)
                .run(maxPages: 1)
            let list = SharedList(list: descriptor.key, fingerprint: "mine")
            await #expect(throws: FleetError.pagedOtherwiseMeanwhile(list: descriptor.key)) {
                try await cache.syncingSharedList(
                    list, source: NumberedSource(pageCount: 4), plannedStyle: #"{"kind":"page"}"#, refresh: false,
                    concurrency: 1
                ) { _ in 0 }
            }
        }
    }

    /// Runs `body` with a cache on a new database of a server started for the test.
    private func withCache(
        _ body: (PostgresCache, PostgresLocation, PostgresServer) async throws -> Void
    ) async throws {
        try await PostgresServer.with { server in
            let database = try await server.makeDatabase()
            let location = try PostgresLocation(server.url(database: database))
            let cache = try await PostgresCache.open(location)
            do {
                try await body(cache, location, server)
            } catch {
                try? await cache.close()
                throw error
            }
            try? await cache.close()
        }
    }
}
