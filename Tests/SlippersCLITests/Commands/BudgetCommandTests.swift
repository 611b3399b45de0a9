import Foundation
import LocalAPI
import SlippersKit
import SlippersTestSupport
import Testing

/// `slippers budget`, and a budget kept by other processes around a list open in this one.
@Suite struct BudgetCommandTests {
    @Test func aBudgetKeptByAnotherProcessNeverEvictsAListOpenHere() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            #expect(try await BuiltBinary.slippers.run(["sync", fixture.url(.page)] + db).status == 0)
            #expect(try await BuiltBinary.slippers.run(["sync", fixture.url(.offset)] + db).status == 0)

            // The page-number list is open in this process.
            let store = try SQLiteCache(path: directory.path())
            let pager = try await Pager<FixtureItem>.detecting(
                url: fixture.server.url(.page), cache: store,
                configuration: HTTPListConfiguration(pager: PagerConfiguration(policy: .cacheOnly)))
            await pager.start()

            let budget = try await BuiltBinary.slippers.run(["budget", "--bytes", "1k"] + db)
            #expect(budget.status == 0, "\(budget.stderr)")
            #expect(budget.stdout.contains("budget: at most 1.0 KiB of items"), "\(budget.stdout)")
            #expect(budget.stdout.contains("evicted 1 list"), "\(budget.stdout)")
            let left = try store.lists().map(\.key)
            #expect(left == [pager.list.key])
            #expect(await pager.state.items.count == 10)

            let shown = try await BuiltBinary.slippers.run(["budget"] + db)
            #expect(shown.stdout.hasPrefix("budget: at most 1.0 KiB of items"), "\(shown.stdout)")
            let removed = try await BuiltBinary.slippers.run(["budget", "--none"] + db)
            #expect(removed.stdout.hasPrefix("budget: none"), "\(removed.stdout)")
        }
    }

    @Test func badBudgetsAreRefused() async throws {
        let directory = try TemporaryDirectory()
        for arguments in [["--bytes", "lots"], ["--age", "soon"], ["--none", "--bytes", "1k"]] {
            let outcome = try await BuiltBinary.slippers.run(["budget"] + arguments + ["--db", directory.path()])
            #expect(outcome.status != 0, "\(arguments)")
        }
    }
}
