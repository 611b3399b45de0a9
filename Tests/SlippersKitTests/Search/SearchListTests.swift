import Foundation
import SlippersKit
import SlippersTestSupport
import Testing

@MainActor
@Suite struct SearchListTests {
    struct Note: Codable, Identifiable, CacheIdentifiable, Sendable, Equatable {
        var id: ID<Note>
        var text: String
    }

    let directory: TemporaryDirectory
    let notes: Repository<Note>

    init() throws {
        directory = try TemporaryDirectory()
        notes = Repository<Note>(cache: try SQLiteCache(path: directory.path()))
        try notes.save(
            Page(items: (1...12).map { Note(id: ID($0), text: "café note \($0)") }, nextToken: nil), at: 0,
            in: "GET /notes")
    }

    @Test func settingTheTextSearchesAgainAndPagesOfMatchesFollow() throws {
        let list = SearchList(notes, pageSize: 5)
        #expect(list.items.isEmpty)
        list.text = "cafe"
        #expect(list.items.count == 5)
        #expect(!list.endReached)
        list.rowAppeared(list.items[4])
        #expect(list.items.count == 10)
        list.loadNextPage()
        #expect(list.items.count == 12)
        #expect(list.endReached)
        list.text = "note 7"
        #expect(list.items.map(\.id) == [7])
    }

    @Test func theMatchesFollowTheCache() async throws {
        let list = SearchList(notes, searching: "lemon", in: "GET /notes")
        #expect(list.items.isEmpty)
        let following = Task { await list.follow(pollingEvery: .milliseconds(10)) }
        defer { following.cancel() }
        // Another process's handle on the file: its write reaches the list through the file.
        let other = Repository<Note>(cache: try SQLiteCache(path: directory.path()))
        try other.save(Note(id: 3, text: "lemon tart"))
        await waitUntil(timeout: .seconds(30)) { !list.items.isEmpty }
        #expect(list.items.map(\.id) == [3])
        try other.cache.evict(list: "GET /notes")
        await waitUntil(timeout: .seconds(30)) { list.items.isEmpty }
        #expect(list.items.isEmpty)
    }
}
