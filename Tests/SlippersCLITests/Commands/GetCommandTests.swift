import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct GetCommandTests {
    @Test func findsAnItemThroughItsList() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["get", "GET /posts", "42", "--db", directory.path()])
        #expect(outcome.status == 0)
        let lines = outcome.stdoutLines
        #expect(lines[0] == "type     Post")
        #expect(lines[1] == "id       42")
        #expect(lines[2].hasPrefix("updated  "))
        #expect(lines[3] == #"{"id":42,"title":"Post 42"}"#)
    }

    @Test func findsAnItemThroughItsTypeWithAStringID() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["get", "User", "u2", "--json", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout.hasPrefix(#"{"id":"u2","item":{"id":"u2","name":"User u2"},"type":"User","updated_at":""#))
        let object = try #require(try parsedJSON(outcome.stdout) as? [String: Any])
        #expect(Set(object.keys) == ["id", "item", "type", "updated_at"])
    }

    @Test func aMissingItemIsReported() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["get", "GET /posts", "999", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == [#"slippers: No item with id 999 in "GET /posts""#])
    }

    @Test func anUnknownListOrTypeIsReported() async throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try await BuiltBinary.slippers.run(["get", "Comment", "1", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == [#"slippers: No list or item type "Comment" in the cache"#])
    }

    @Test func reachesTheIntegerAndTheStringIDApart() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        try store.savePage(
            Page(items: [
                RawItem(key: .integer(1), json: Data(#"{"id":1}"#.utf8)),
                RawItem(key: .string("1"), json: Data(#"{"id":"1"}"#.utf8)),
            ]), at: 0, in: ListDescriptor(key: "GET /mixed", itemType: "Mixed"))
        try store.close()
        let integer = try await BuiltBinary.slippers.run(["get", "Mixed", "1", "--db", directory.path()])
        #expect(integer.stdoutLines[1] == "id       1")
        #expect(integer.stdoutLines[3] == #"{"id":1}"#)
        let string = try await BuiltBinary.slippers.run(["get", "Mixed", #""1""#, "--db", directory.path()])
        #expect(string.stdoutLines[1] == #"id       "1""#)
        #expect(string.stdoutLines[3] == #"{"id":"1"}"#)
        let json = try await BuiltBinary.slippers.run([
            "get", "GET /mixed", #""1""#, "--json", "--db", directory.path(),
        ])
        #expect(json.stdout.hasPrefix(#"{"id":"1","item":{"id":"1"}"#))
        let items = try await BuiltBinary.slippers.run(["items", "GET /mixed", "--db", directory.path()])
        #expect(items.stdout.contains(#""1""#))
    }

    @Test func aShortTypeNameReachesTheItemsOfItsOnlyOriginAndNamesTheCandidatesOtherwise() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        for host in ["a.example", "b.example"] {
            try store.savePage(
                Page(items: [RawItem(key: .integer(1), json: Data(#"{"id":1,"host":"\#(host)"}"#.utf8))]), at: 0,
                in: ListDescriptor(key: "http://\(host)/ids", itemType: "ids@http://\(host)"))
        }
        try store.savePage(
            Page(items: [RawItem(key: .integer(5), json: Data(#"{"id":5}"#.utf8))]), at: 0,
            in: ListDescriptor(key: "http://a.example/posts", itemType: "posts@http://a.example"))
        try store.close()
        let short = try await BuiltBinary.slippers.run(["get", "posts", "5", "--db", directory.path()])
        #expect(short.status == 0)
        #expect(short.stdoutLines[0] == "type     posts@http://a.example")
        let full = try await BuiltBinary.slippers.run(["get", "ids@http://b.example", "1", "--db", directory.path()])
        #expect(full.stdoutLines[3] == #"{"id":1,"host":"b.example"}"#)
        let ambiguous = try await BuiltBinary.slippers.run(["get", "ids", "1", "--db", directory.path()])
        #expect(ambiguous.status == 1)
        #expect(
            ambiguous.stderrLines == [
                #"slippers: "ids" names the items of several origins; give one of: ids@http://a.example, ids@http://b.example"#
            ])
    }
}
