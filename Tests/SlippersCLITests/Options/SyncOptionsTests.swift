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

    @Test func aForcedStyleIsItsUsualTemplate() {
        #expect(StyleOption.offset.template.totalKeyPath == "total")
        #expect(StyleOption.offset.template.pageSizeParameter == "limit")
        #expect(StyleOption.cursor.template.styleName == "cursor")
        #expect(StyleOption(argument: "nextURL")?.template.pageSizeParameter == nil)
        #expect(StyleOption(argument: "graphql") == nil)
        #expect(StyleOption.allValueStrings == PaginationStyle.styleNames)
    }
}
