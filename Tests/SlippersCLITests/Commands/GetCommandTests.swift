import Foundation
import SlippersTestSupport
import Testing

@Suite struct GetCommandTests {
    @Test func findsAnItemThroughItsCollection() throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try BuiltBinary.slippers.run(["get", "GET /posts", "42", "--db", directory.path()])
        #expect(outcome.status == 0)
        let lines = outcome.stdoutLines
        #expect(lines[0] == "type     Post")
        #expect(lines[1] == "id       42")
        #expect(lines[2].hasPrefix("updated  "))
        #expect(lines[3] == #"{"id":42,"title":"Post 42"}"#)
    }

    @Test func findsAnItemThroughItsTypeWithAStringID() throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try BuiltBinary.slippers.run(["get", "User", "u2", "--json", "--db", directory.path()])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout.hasPrefix(#"{"id":"u2","item":{"id":"u2","name":"User u2"},"type":"User","updated_at":""#))
        let object = try #require(try parsedJSON(outcome.stdout) as? [String: Any])
        #expect(Set(object.keys) == ["id", "item", "type", "updated_at"])
    }

    @Test func aMissingItemIsReported() throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try BuiltBinary.slippers.run(["get", "GET /posts", "999", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == [#"slippers: No item with id 999 in "GET /posts""#])
    }

    @Test func anUnknownCollectionOrTypeIsReported() throws {
        let directory = try TemporaryDirectory()
        try SeededCache.write(at: directory.path())
        let outcome = try BuiltBinary.slippers.run(["get", "Comment", "1", "--db", directory.path()])
        #expect(outcome.status == 1)
        #expect(outcome.stderrLines == [#"slippers: No collection or item type "Comment" in the cache"#])
    }
}
