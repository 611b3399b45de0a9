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

    @Test func theLongCommandsSayWhatTheyDoInOneParagraphAndThreeExamples() throws {
        let commands: [any ParsableCommand.Type] = [
            SlippersCommand.Sync.self, SlippersCommand.Detect.self, SlippersCommand.Enqueue.self,
            SlippersCommand.Push.self,
        ]
        for command in commands {
            let help = command.helpMessage(columns: 80)
            let head = help.components(separatedBy: "\nUSAGE:")[0]
            let parts = head.components(separatedBy: "\n\n").filter { !$0.isEmpty }
            // The overview, one paragraph, the examples (indented: a code block in the generated reference).
            #expect(parts.count == 4, "\(command): \(parts.count) paragraphs before the usage")
            #expect(parts.count > 2 && parts[2] == "Examples:", "\(command)")
            let examples = parts.last?.split(separator: "\n") ?? []
            #expect(examples.filter { $0.hasPrefix("    slippers ") }.count == 3, "\(command)")
            #expect(examples.allSatisfy { $0.hasPrefix("    ") && $0.count < 80 }, "\(command): an example wraps")
            // Options are grouped under titles; what is left untitled is the common few.
            #expect(help.contains("\nREQUESTS:\n"), "\(command)")
            let untitled = help.components(separatedBy: "\nOPTIONS:\n").last ?? ""
            #expect(untitled.split(separator: "\n").filter { $0.hasPrefix("  -") }.count <= 7, "\(command)")
        }
    }

    @Test func evictTakesOneChoice() throws {
        let evict = try SlippersCommand.Evict.parse(["--older-than", "7d", "--db", "x.sqlite"])
        #expect(evict.olderThan == Age(seconds: 604_800))
        #expect(evict.database.resolvedPath(environment: [:]) == "x.sqlite")
        #expect(throws: (any Error).self) { try SlippersCommand.Evict.parse([]) }
        #expect(throws: (any Error).self) { try SlippersCommand.Evict.parse(["--list", "a", "--unreferenced"]) }
    }

    @Test func exportFormatsAreAClosedSet() throws {
        #expect(SlippersCommand.Export.Format.allCases.map(\.rawValue) == ["json", "ndjson", "csv"])
        #expect(try SlippersCommand.Export.parse(["posts"]).format == .json)
        #expect(try SlippersCommand.Export.parse(["posts", "--format", "ndjson"]).format == .ndjson)
        #expect(try SlippersCommand.Export.parse(["posts", "--format", "csv"]).format == .csv)
        #expect(throws: (any Error).self) { try SlippersCommand.Export.parse(["posts", "--format", "xml"]) }
    }

    @Test func theRootParsesEachSubcommandByName() throws {
        #expect(try SlippersCommand.parseAsRoot(["lists", "--json"]) is SlippersCommand.Lists)
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
