import ArgumentParser
import Slippers
import Testing

@testable import SlippersCLI

/// The command line as parsed, without running anything.
@Suite struct ParsingTests {
    @Test func everySubcommandTakesDbAndDocumentsEveryOption() throws {
        // A group (`outbox`) is checked through its subcommands, which do the work.
        let commands = SlippersCommand.configuration.subcommands.flatMap { command in
            command.configuration.subcommands.isEmpty ? [command] : command.configuration.subcommands
        }
        for command in commands {
            let help = command.helpMessage(columns: 200)
            // `demo` brings its own cache, `detect` opens none.
            if command != SlippersCommand.Demo.self, command != SlippersCommand.Detect.self {
                #expect(help.contains("--db <path-or-url>"), "\(command)")
            }
            // swift-argument-parser prints an option without help text with nothing after its name.
            for line in help.split(separator: "\n") where line.hasPrefix("  -") {
                #expect(line.split(separator: " ", omittingEmptySubsequences: true).count > 1, "\(command): \(line)")
            }
        }
    }

    @Test func evictTakesOneChoice() throws {
        let evict = try SlippersCommand.Evict.parse(["--older-than", "7d", "--db", "x.sqlite"])
        #expect(evict.olderThan == Age(seconds: 604_800))
        #expect(evict.database.resolvedPath(environment: [:]) == "x.sqlite")
        #expect(throws: (any Error).self) { try SlippersCommand.Evict.parse([]) }
        #expect(throws: (any Error).self) { try SlippersCommand.Evict.parse(["--collection", "a", "--unreferenced"]) }
    }

    @Test func exportFormatsAreAClosedSet() throws {
        #expect(SlippersCommand.Export.Format.allCases.map(\.rawValue) == ["json", "ndjson", "csv"])
        #expect(try SlippersCommand.Export.parse(["posts"]).format == .json)
        #expect(try SlippersCommand.Export.parse(["posts", "--format", "ndjson"]).format == .ndjson)
        #expect(try SlippersCommand.Export.parse(["posts", "--format", "csv"]).format == .csv)
        #expect(throws: (any Error).self) { try SlippersCommand.Export.parse(["posts", "--format", "xml"]) }
    }

    @Test func theRootParsesEachSubcommandByName() throws {
        #expect(try SlippersCommand.parseAsRoot(["collections", "--json"]) is SlippersCommand.Collections)
        #expect(try SlippersCommand.parseAsRoot(["get", "Post", "1"]) is SlippersCommand.Get)
        #expect(throws: (any Error).self) { try SlippersCommand.parseAsRoot(["invalidate"]) }
    }

    @Test func idsOfDigitsWithAnOptionalMinusAreIntegersAndAnythingElseStrings() {
        #expect(ItemKey(commandLineArgument: "42") == .integer(42))
        #expect(ItemKey(commandLineArgument: "u42") == .string("u42"))
        #expect(ItemKey(commandLineArgument: "-1") == .integer(-1))
        #expect(ItemKey(commandLineArgument: "-") == .string("-"))
        #expect(ItemKey(commandLineArgument: "--1") == .string("--1"))
        #expect(ItemKey(commandLineArgument: "99999999999999999999999") == .string("99999999999999999999999"))
    }

    @Test func errorsBecomeOneLine() {
        struct Multiline: Error, CustomStringConvertible {
            var description: String { "first\n  second" }
        }
        #expect(ErrorReport.line(for: Multiline()) == "slippers: first second")
    }
}
