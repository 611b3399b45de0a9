import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

/// Every shape of the fixture catalogue: `sync` with no flags copies the list exactly (exit 0, every
/// item the server holds), or fails in one line whose flags, run, copy it exactly.
///
/// A loud line names the flags that describe the list; where it cannot know a value (a parameter
/// of a name no detection can guess), it writes `NAME` or `PATH`, and the test fills it from what
/// the server's documentation says, as a user would.
@Suite struct SyncEveryShapeTests {
    /// A shape: a route of the fixture server, how its server is configured, and what its
    /// documentation says of the values a loud line cannot know.
    struct Shape: Sendable, CustomTestStringConvertible {
        var name: String
        var route: FixtureServer.Route
        var configuration = FixtureServer.Configuration(itemCount: 123, pageSize: 10)
        var responseHeaders: [String: String] = [:]
        /// The documented value of a flag whose value a loud line leaves as `NAME` or `PATH`.
        var documented: [String: String] = [:]

        var testDescription: String { name }
    }

    static let shapes: [Shape] =
        FixtureServer.Route.allCases.map { route in
            Shape(name: route.rawValue, route: route)
        } + [
            {
                var shape = Shape(name: "/offset capped, 400 above 20", route: .offset)
                shape.configuration.maxLimit = 20
                shape.configuration.refusedLimitStatus = 400
                return shape
            }(),
            {
                var shape = Shape(name: "/offset capped, 422 above 10", route: .offset)
                shape.configuration.maxLimit = 10
                shape.configuration.refusedLimitStatus = 422
                return shape
            }(),
            {
                var shape = Shape(name: "/page, a bare array from page 0", route: .page)
                shape.configuration.itemsKeyPath = nil
                shape.configuration.firstPage = 0
                return shape
            }(),
            {
                var shape = Shape(name: "/page, items two levels down", route: .page)
                shape.configuration.itemsKeyPath = "payload.list"
                return shape
            }(),
            {
                var shape = Shape(name: "/next-page-header, no-store", route: .nextPageHeader)
                shape.responseHeaders = ["Cache-Control": "no-store"]
                return shape
            }(),
            {
                var shape = Shape(name: "/renamed-continuation, no-store", route: .renamedContinuation)
                shape.responseHeaders = ["Cache-Control": "no-cache, no-store, must-revalidate"]
                return shape
            }(),
            {
                var shape = Shape(name: "/missing-array-end, a last page full", route: .missingArrayEnd)
                shape.configuration.itemCount = 120
                return shape
            }(),
        ]

    @Test(arguments: shapes)
    func syncsExactlyOrItsLoudLineNamesFlagsThatDo(shape: Shape) async throws {
        let server = FixtureServer(configuration: shape.configuration)
        try await server.start()
        defer { Task { await server.stop() } }
        server.setResponseHeaders(shape.responseHeaders)
        let url = server.url(shape.route, query: shape.route.firstPageQuery).absoluteString
        let directory = try TemporaryDirectory()
        let plain = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
        if plain.status == 0 {
            #expect(try await itemsCached(url, in: directory) == server.itemCount, "\(shape.name): \(plain.stdout)")
            return
        }
        #expect(plain.stderrLines.count == 1, "\(shape.name): \(plain.stderr)")
        if let command = Self.wholeCommand(plain.stderr) {
            // A line that gives the whole command: run as it is, into a fresh file, it is exact.
            let fresh = try TemporaryDirectory()
            let fixed = try await BuiltBinary.slippers.run(Self.replacingDatabase(in: command, with: fresh.path()))
            #expect(fixed.status == 0, "\(shape.name): \(command): \(fixed.stderr)")
            #expect(try await itemsCached(url, in: fresh) == server.itemCount, "\(shape.name): \(command)")
            return
        }
        let groups = Self.flagGroups(plain.stderr, documented: shape.documented)
        #expect(!groups.isEmpty, "\(shape.name): the line names no flag: \(plain.stderr)")
        var exact = false
        for flags in groups where !exact {
            let fresh = try TemporaryDirectory()
            let fixed = try await BuiltBinary.slippers.run(["sync", url, "--db", fresh.path()] + flags)
            if fixed.status == 0, try await itemsCached(url, in: fresh) == server.itemCount { exact = true }
        }
        #expect(exact, "\(shape.name): no flags of the line sync exactly: \(plain.stderr)")
    }

    @Test func aPageParameterRefusedByNameIsFoundUnderItsUnderscoreNamesBySyncAndDetect() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 57, pageSize: 10))
        try await server.start()
        defer { Task { await server.stop() } }
        let url = server.url(.fieldFilters).absoluteString
        let directory = try TemporaryDirectory()
        let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try await itemsCached(url, in: directory) == 57)
        let detect = try await BuiltBinary.slippers.run(["detect", url])
        #expect(detect.status == 0, "\(detect.stderr)")
        let flags = detect.stdout.split(separator: "\n").first { $0.hasPrefix("flags ") }
        #expect(flags?.contains("--page-param __page --page-size-param __page_size") == true, "\(detect.stdout)")
        #expect(detect.stdout.contains("?page=1 was refused (400"), "\(detect.stdout)")
        #expect(detect.stdout.contains("page isn't a valid field name"), "\(detect.stdout)")
    }

    @Test func aListPagedInsideARisonParameterItsURLDoesNotNameSyncsAsDetectsFlagsSay() async throws {
        let server = FixtureServer(configuration: .init(itemCount: 123, pageSize: 10))
        try await server.start()
        defer { Task { await server.stop() } }
        // No ?q= in the URL: ?page=, ?offset= and ?skip= bring page 1 again, ?q=(page:1) advances.
        let url = server.url(.rison).absoluteString
        let plain = try TemporaryDirectory()
        let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", plain.path()])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try await itemsCached(url, in: plain) == 123)
        let detect = try await BuiltBinary.slippers.run(["detect", url])
        #expect(detect.status == 0, "\(detect.stderr)")
        let row = try #require(detect.stdout.split(separator: "\n").first { $0.hasPrefix("flags ") })
        #expect(row.contains("--page-param q.page --page-size-param q.page_size"), "\(detect.stdout)")
        // The flags, given by hand on the same URL, create ?q= in rison and find its pages from 0.
        let flags = row.dropFirst("flags".count).split(separator: " ").map(String.init)
        // Another page size than the first response's drops that response: the pages still count from 0.
        let sized = ["--page-param", "q.page", "--page-size-param", "q.page_size", "--page-size", "7"]
        for given in [flags, ["--page-param", "q.page"], sized] {
            let fresh = try TemporaryDirectory()
            let fixed = try await BuiltBinary.slippers.run(["sync", url, "--db", fresh.path()] + given)
            #expect(fixed.status == 0, "\(given): \(fixed.stderr)")
            #expect(try await itemsCached(url, in: fresh) == 123, "\(given)")
        }
    }

    @Test func aLineThatNamesAParameterItCannotGuessSaysWhichWasRefused() async throws {
        let server = FixtureServer(configuration: .init())
        try await server.start()
        defer { Task { await server.stop() } }
        // Every parameter but ?pg= is refused as a field it does not have, underscore names too.
        server.script("/filters") { request in
            if let name = request.query.keys.sorted().first(where: { $0 != "pg" }) {
                return FixtureServer.ScriptedResponse(
                    status: 400, body: Data(#"{"error":"\#(name) isn't a valid field name"}"#.utf8))
            }
            let page = Int(request.query["pg"] ?? "1") ?? 1
            let items = ((page - 1) * 10 + 1...page * 10).map { #"{"id":\#($0)}"# }.joined(separator: ",")
            return .json(#"{"rows":[\#(items)]}"#)
        }
        let url = server.url(path: "/filters").absoluteString
        let directory = try TemporaryDirectory()
        let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
        #expect(sync.status == 1)
        #expect(sync.stderrLines.count == 1, "\(sync.stderr)")
        #expect(sync.stderr.contains("?page=1 was refused (400"), "\(sync.stderr)")
        #expect(sync.stderr.contains("page isn't a valid field name"), "\(sync.stderr)")
        #expect(sync.stderr.contains("--page-param NAME"), "\(sync.stderr)")
        let detect = try await BuiltBinary.slippers.run(["detect", url])
        #expect(detect.status == 1)
        #expect(detect.stderr.contains("--page-param NAME"), "\(detect.stderr)")
    }

    @Test func anOpaqueCursorSentBackUnderAnUnguessableNameIsNamedWithItsPath() async throws {
        let server = FixtureServer(configuration: .init())
        try await server.start()
        defer { Task { await server.stop() } }
        // Opaque strings at *_page members, taken back only as ?tok=: no conventional name advances.
        server.script("/tokens") { request in
            let start = request.query["tok"].flatMap { Int($0.dropFirst().dropLast()) } ?? 0
            let end = min(start + 10, 43)
            let items = (start + 1...end).map { #"{"id":\#($0)}"# }.joined(separator: ",")
            let next = end < 43 ? #""t\#(end)x""# : "null"
            return .json(#"{"items":[\#(items)],"total":43,"current_page":"t\#(start)x","next_page":\#(next)}"#)
        }
        let url = server.url(path: "/tokens").absoluteString
        let directory = try TemporaryDirectory()
        let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
        #expect(sync.status == 1)
        #expect(sync.stderrLines.count == 1)
        #expect(sync.stderr.contains("--cursor-path next_page --cursor-param NAME"), "\(sync.stderr)")
        #expect(sync.stderr.contains("?cursor=, ?next_page=, ?from="), "\(sync.stderr)")
        #expect(sync.stderr.contains(" from next_page brought page 1 again"), "\(sync.stderr)")
        let groups = Self.flagGroups(sync.stderr, documented: ["--cursor-param": "tok"])
        #expect(groups.contains(["--cursor-path", "next_page", "--cursor-param", "tok"]), "\(groups)")
        let fixed = try await BuiltBinary.slippers.run([
            "sync", url, "--cursor-path", "next_page", "--cursor-param", "tok", "--refresh", "--db", directory.path(),
        ])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try await itemsCached(url, in: directory) == 43)
    }

    @Test func anIdGuessedFromOnePageThatRepeatsOnLaterPagesIsLoud() async throws {
        let server = FixtureServer(configuration: .init())
        try await server.start()
        defer { Task { await server.stop() } }
        // No id: `author` differs on page 1 (five posts by five people) and repeats after.
        server.script("/posts") { request in
            let page = Int(request.query["page"] ?? "1") ?? 1
            let positions = (page - 1) * 5..<min(page * 5, 60)
            let items = positions.map { #"{"title":"Post number \#($0)","author":"user\#($0 % 7)"}"# }
            return .json(#"{"results":[\#(items.joined(separator: ","))]}"#)
        }
        let url = server.url(path: "/posts").absoluteString
        let directory = try TemporaryDirectory()
        let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
        #expect(sync.status == 3, "\(sync.stdout) \(sync.stderr)")
        #expect(sync.stderrLines.count == 1, "\(sync.stderr)")
        #expect(sync.stderr.contains("author, taken for one"), "\(sync.stderr)")
        #expect(sync.stderr.contains("--id-field NAME"), "\(sync.stderr)")
    }

    /// The number of items the cache holds for the list at `url`.
    private func itemsCached(_ url: String, in directory: TemporaryDirectory) async throws -> Int {
        let export = try await BuiltBinary.slippers.run(["export", url, "--format", "ndjson", "--db", directory.path()])
        return Set(export.stdout.split(separator: "\n")).count
    }

    /// The arguments of the `slippers sync …` command a line ends with, unquoted; `nil` when it gives none.
    static func wholeCommand(_ line: String) -> [String]? {
        guard let range = line.range(of: ": slippers sync ") else { return nil }
        var words: [String] = []
        var word = ""
        var quoted = false
        var hasWord = false
        for character in line[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines) {
            if character == "'" {
                quoted.toggle()
                hasWord = true
            } else if character == " ", !quoted {
                if hasWord { words.append(word) }
                word = ""
                hasWord = false
            } else {
                word.append(character)
                hasWord = true
            }
        }
        if hasWord { words.append(word) }
        return ["sync"] + words
    }

    /// `arguments` with the value of `--db` set to `path` (added when they name none).
    static func replacingDatabase(in arguments: [String], with path: String) -> [String] {
        guard let index = arguments.firstIndex(of: "--db"), index + 1 < arguments.count else {
            return arguments + ["--db", path]
        }
        var replaced = arguments
        replaced[index + 1] = path
        return replaced
    }

    /// The value flags of `sync`; any other flag a line names stands alone.
    static let valueFlags: Set<String> = [
        "--page-param", "--page-size-param", "--cursor-path", "--cursor-param", "--style", "--items-path",
        "--id-field", "--total-path", "--page-size",
    ]

    /// The groups of flags a line names, each a way it proposes: flags that follow one another
    /// form one group; a word or a punctuation mark between them ends it. Placeholders are filled
    /// from `documented`; a group with one it cannot fill, and `--refresh` alone, are left out.
    static func flagGroups(_ line: String, documented: [String: String]) -> [[String]] {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        var groups: [[String]] = []
        var group: [String] = []
        var fillable = true
        func close() {
            if !group.isEmpty, fillable, group != ["--refresh"] { groups.append(group) }
            group = []
            fillable = true
        }
        func trimmed(_ word: String) -> (text: String, ends: Bool) {
            let text = word.trimmingCharacters(in: CharacterSet(charactersIn: ",;:()"))
            return (text, text.count != word.count && !word.hasPrefix("'"))
        }
        var index = 0
        while index < words.count {
            let (flag, flagEnds) = trimmed(words[index])
            index += 1
            guard flag.hasPrefix("--"), flag.count > 2 else {
                close()
                continue
            }
            group.append(flag)
            if valueFlags.contains(flag), !flagEnds, index < words.count {
                var (value, valueEnds) = trimmed(words[index])
                index += 1
                value = value.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                if value == "NAME" || value == "PATH" {
                    if let known = documented[flag] { value = known } else { fillable = false }
                }
                group.append(value)
                if valueEnds { close() }
            } else if flagEnds {
                close()
            }
        }
        close()
        return groups
    }
}
