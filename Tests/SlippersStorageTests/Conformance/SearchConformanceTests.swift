import Foundation
import Slippers
import SlippersPostgres
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

/// Offline search on a file and on a real PostgreSQL server the test starts: the same searches of
/// the same items find the same items in the same order on both.
@Suite(.enabled(if: PostgresServer.isAvailable), .timeLimit(.minutes(2)))
struct SearchConformanceTests {
    private static let posts = ListDescriptor(key: "GET /posts", itemType: "Post")

    private static func item(_ id: Int, _ title: String) -> RawItem {
        RawItem(key: .integer(id), json: Data(#"{"id":\#(id),"title":"\#(title)","author":{"name":"Zoë"}}"#.utf8))
    }

    @Test func theSameSearchesFindTheSameItemsInTheSameOrderOnBothBackends() async throws {
        try await onBothBackends { storage in
            _ = try await storage.savePage(
                Page(
                    items: [
                        Self.item(1, "river river river bank"),
                        Self.item(2, "a river in the valley far away from the city lights"),
                        Self.item(3, "Café au lait"), Self.item(4, "message board"),
                        Self.item(5, "new york pizza"), Self.item(6, "york new pizza"),
                    ], nextToken: nil), at: 0, in: Self.posts)
            let alice = Account("alice")
            _ = try await storage.savePage(
                Page(items: [Self.item(1, "river of alice")], nextToken: nil), at: 0,
                in: ListDescriptor(
                    key: ListKey("GET /posts", account: alice).description,
                    itemType: ListKey.itemType("Post", account: alice)))
            var lines: [String] = []
            for text in ["river", "cafe", "CAFÉ", "mess", "\"new york\"", "zoe", "AND OR (", "*", "", "col:umn"] {
                let found = try await storage.search(text, in: .list(Self.posts.key), limit: 10)
                lines.append("\(text): \(Self.ids(found))")
            }
            let both = try await storage.search("pizza york", in: .itemType("Post"), limit: 10)
            lines.append("pizza york: \(Self.ids(both).sorted())")
            let ofAlice = try await storage.search(
                "river", in: .itemType(ListKey.itemType("Post", account: alice)), limit: 10)
            lines.append("alice: \(ofAlice.map { String(decoding: $0.json, as: UTF8.self) })")
            return lines
        }
    }

    @Test func aChangedItemIsFoundByItsNewValuesOnPostgreSQL() async throws {
        try await onBothBackends { storage in
            _ = try await storage.savePage(Page(items: [Self.item(1, "orange")], nextToken: nil), at: 0, in: Self.posts)
            _ = try await storage.savePage(Page(items: [Self.item(1, "banana")], nextToken: nil), at: 0, in: Self.posts)
            let orange = try await storage.search("orange", in: .list(Self.posts.key), limit: 10)
            let banana = try await storage.search("banana", in: .list(Self.posts.key), limit: 10)
            return ["orange: \(Self.ids(orange))", "banana: \(Self.ids(banana))"]
        }
    }

    /// The integer ids of raw items.
    private static func ids(_ items: [RawItem]) -> [Int] {
        items.map { item in
            if case .integer(let id) = item.key { return id }
            return -1
        }
    }

    /// Runs `scenario` on a new file, then on a new PostgreSQL database, and expects the same lines.
    private func onBothBackends(_ scenario: (any CacheStorage) async throws -> [String]) async throws {
        try await StorageBackends.expectSame(scenario)
    }
}
