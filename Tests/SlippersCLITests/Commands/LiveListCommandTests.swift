import Foundation
import LocalAPI
import SlippersKit
import SlippersTestSupport
import Testing

/// An open pager in this process follows what `slippers` processes write to its file.
@Suite struct LiveListCommandTests {
    @Test func anEditAndASyncRefreshByAnotherProcessReachAnOpenPagerWithoutARequest() async throws {
        try await RunningFixture.with(itemCount: 30, pageSize: 10) { fixture in
            let directory = try TemporaryDirectory()
            let db = ["--db", directory.path()]
            let url = fixture.url()
            #expect(try await BuiltBinary.slippers.run(["sync", url] + db).status == 0)

            let store = try SQLiteCache(path: directory.path())
            let pager = try await Pager<FixtureItem>.detecting(
                url: fixture.server.url(.page), cache: store,
                configuration: HTTPListConfiguration(pager: PagerConfiguration(policy: .cacheOnly)))
            await pager.start()
            #expect(await pager.state.items.count == 10)
            let following = Task { await pager.followCache() }
            defer { following.cancel() }
            fixture.server.resetRequests()

            let edit = try await BuiltBinary.slippers.run(
                ["edit", url, "5", "--set", #"{"title": "Edited by a script"}"#] + db)
            #expect(edit.status == 0, "\(edit.stderr)")
            #expect(try await eventually { await pager.state.items[4].title == "Edited by a script" })

            // The server changes an item; a sync --refresh by another process brings it to the open pager.
            fixture.server.update(id: 7, title: "Changed on the server")
            #expect(try await BuiltBinary.slippers.run(["sync", url, "--refresh"] + db).status == 0)
            #expect(try await eventually { await pager.state.items[6].title == "Changed on the server" })
            // The pending edit survives the refresh. The pager itself asks for nothing: it reads the cache only.
            #expect(await pager.state.items[4].title == "Edited by a script")
        }
    }

    /// Whether `condition` holds within 20 s, read every 50 ms.
    private func eventually(_ condition: () async -> Bool) async throws -> Bool {
        for _ in 0..<400 {
            if await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
