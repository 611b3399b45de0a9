import ArgumentParser
import Foundation
import SlippersNetworking
import Testing

@testable import SlippersCLI

/// The options of `sync`, parsed and applied, without a server.
@Suite struct SyncOptionsTests {
    @Test func headersParseAsNameColonValue() {
        #expect(
            HeaderArgument(argument: "Authorization: Bearer abc")
                == HeaderArgument(name: "Authorization", value: "Bearer abc"))
        #expect(HeaderArgument(argument: "X-Empty:") == HeaderArgument(name: "X-Empty", value: ""))
        #expect(HeaderArgument(argument: "Accept:application/json:v2")?.value == "application/json:v2")
    }

    @Test(arguments: ["Bearer abc", ": value", "Two Words: x", "Bad/Name: x", ""])
    func malformedHeadersAreRejected(text: String) {
        #expect(HeaderArgument(argument: text) == nil)
    }

    @Test func syncValidatesItsURLAndHeadersBeforeRunning() throws {
        let parsed = try SlippersCommand.Sync.parse([
            "https://api.example.com/posts", "--header", "A: 1", "--header", "B: 2", "--max-pages", "3", "--refresh",
        ])
        #expect(parsed.headers == ["A: 1", "B: 2"])
        #expect(parsed.maxPages == 3)
        #expect(parsed.refresh)
        #expect(throws: (any Error).self) { try SlippersCommand.Sync.parse(["mailto:someone@example.com"]) }
        #expect(throws: (any Error).self) { try SlippersCommand.Sync.parse(["https://x.example", "--max-pages", "0"]) }
        #expect(throws: (any Error).self) {
            try SlippersCommand.Sync.parse(["https://x.example", "--style", "zigzag"])
        }
    }

    @Test func overridesReplaceOnlyWhatWasGiven() {
        let detected = PaginationStyle.pageNumber(pageSize: 20, itemsKeyPath: "results", totalKeyPath: "total")
        #expect(StyleOverrides().applied(to: detected) == detected)

        let offset = StyleOverrides(style: .offset, pageSize: 10).applied(to: detected)
        #expect(StyleOption(offset.kind) == .offset)
        #expect(offset.pageSizeParameter == "limit")
        #expect(offset.pageSize == 10)
        #expect(offset.itemsKeyPath == "results")
        #expect(offset.totalKeyPath == "total")

        let fields = StyleOverrides(itemsPath: "data.items", idField: "uuid").applied(to: detected)
        #expect(fields.kind == detected.kind)
        #expect(fields.itemsKeyPath == "data.items")
        #expect(fields.idField == "uuid")
    }

    @Test func theStoredStyleIsStableJSON() throws {
        let style = PaginationStyle.cursor(pageSize: 50)
        #expect(try SyncPlan.encode(style) == SyncPlan.encode(style))
        let decoded = try JSONDecoder().decode(PaginationStyle.self, from: Data(try SyncPlan.encode(style).utf8))
        #expect(decoded == style)
    }
}
