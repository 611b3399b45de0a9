import Foundation
import LocalAPI
import SlippersTestSupport
import Testing

@Suite struct DetectCommandTests {
    static let detectedRoutes = FixtureServer.Route.allCases

    @Test(arguments: detectedRoutes)
    func explainsEachStyleWithPageTwoCheckedAndWritesNothing(route: FixtureServer.Route) async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run(
                ["detect", fixture.url(route)], in: directory.url, environment: ["SLIPPERS_DB": directory.path()])
            #expect(outcome.status == 0, "\(route): \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty)
            let lines = outcome.stdout.split(separator: "\n")
            for name in ["style", "items", "id field", "page size", "total", "end of list", "confidence", "why"] {
                #expect(lines.contains { $0.hasPrefix(name + " ") }, "\(route): no \(name) in \(outcome.stdout)")
            }
            // Page 2 is asked for to check the style; a body that does not say how is told apart by
            // asking in each way: ?page=, then ?current_page= or ?offset=; a page parameter refused by
            // name, under its underscore names (?page=1, ?_page=1, ?__page=1, ?__page=2); a continuation
            // under its own name, then the vocabulary's (?cursor=, ?end=, ?from=; ?next_token=, ?from=).
            let probes =
                switch route {
                case .fieldFilters: 4
                case .renamedContinuation: 3
                case .ninjaOffset, .contentRange, .litestarClassic, .namedItems: 2
                default: 1
                }
            #expect(fixture.server.requestCount >= 2 && fixture.server.requestCount <= 1 + probes, "\(route)")
            #expect(outcome.stdout.contains("asked for page 2"), "\(route): \(outcome.stdout)")
            // The flags are those whose page 2 advanced.
            let flags = try #require(lines.first { $0.hasPrefix("flags ") }, "\(route): \(outcome.stdout)")
            #expect(!flags.contains("none"), "\(route): \(outcome.stdout)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        }
    }

    @Test func aListMarkedNoStoreHasKeepNoStoreInItsFlagsAndTheFlagsSyncExactly() async throws {
        try await RunningFixture.with(itemCount: 45, pageSize: 10) { fixture in
            fixture.server.setResponseHeaders(["Cache-Control": "no-cache, no-store, must-revalidate"])
            let url = fixture.url(.namedItems)
            let detect = try await BuiltBinary.slippers.run(["detect", url])
            #expect(detect.status == 0, "\(detect.stderr)")
            let row = try #require(detect.stdout.split(separator: "\n").first { $0.hasPrefix("flags ") })
            #expect(row.hasSuffix(" --keep-no-store"), "\(row)")
            #expect(row.contains("--cursor-param from") && row.contains("--id-field name"), "\(row)")
            let directory = try TemporaryDirectory()
            let flags = row.dropFirst("flags".count).split(separator: " ").map(String.init)
            let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()] + flags)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.contains("synced 45 items"), "\(sync.stdout)")
        }
    }

    @Test func aListThatRefusesGETSaysItIsAskedForByPOST() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/flows/filter") { _ in
                FixtureServer.ScriptedResponse(status: 405, body: Data(#"{"detail":"Method Not Allowed"}"#.utf8))
            }
            let url = fixture.server.url(path: "/flows/filter").absoluteString
            for command in ["sync", "detect"] {
                let directory = try TemporaryDirectory()
                let database = command == "sync" ? ["--db", directory.path()] : []
                let outcome = try await BuiltBinary.slippers.run([command, url] + database)
                #expect(outcome.status == 1)
                #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
                #expect(outcome.stderr.contains("HTTP 405"), "\(outcome.stderr)")
                #expect(outcome.stderr.contains("--post-body JSON"), "\(outcome.stderr)")
            }
        }
    }

    @Test func aBodyThatIsNotJSONExitsOneWithOneLine() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/page.html") { _ in
                FixtureServer.ScriptedResponse(
                    status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><body>hi</body></html>".utf8)
                )
            }
            let outcome = try await BuiltBinary.slippers.run([
                "detect", fixture.server.url(path: "/page.html").absoluteString,
            ])
            #expect(outcome.status == 1)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        }
    }

    @Test func aServerThatRefusesPlainJSONIsAskedForItsMediaType() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/api") { request in
                guard request.headers["Accept"]?.contains("application/vnd.api+json") == true else {
                    return FixtureServer.ScriptedResponse(status: 406)
                }
                return .json(#"{"data": [{"id": 1}, {"id": 2}], "links": {"next": null}, "meta": {"total": 2}}"#)
            }
            let url = fixture.server.url(path: "/api").absoluteString
            let detect = try await BuiltBinary.slippers.run(["detect", url])
            #expect(detect.status == 0, "\(detect.stderr)")
            let directory = try TemporaryDirectory()
            fixture.server.resetRequests()
            let sync = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.contains("synced 2 items in 1 page"), "\(sync.stdout)")
            #expect(fixture.server.requestCount == 2)
        }
    }

    @Test func verboseShowsItsTwoExchangesOnStderr() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let outcome = try await BuiltBinary.slippers.run(["--verbose", "detect", fixture.url()])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            // Page 1, then page 2 to check the style, and what that probe brought.
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.prefix(2).allSatisfy { $0.hasPrefix("slippers: debug: HTTP exchange") }, "\(outcome.stderr)")
            #expect(lines.last?.hasPrefix("slippers: debug: page 2 probe asked=?page=2 brought new items") == true)
        }
    }

    @Test func printsTheDetectionAsJSON() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let outcome = try await BuiltBinary.slippers.run(["detect", fixture.url(.odata), "--json"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let object = try #require(try parsedJSON(outcome.stdout) as? [String: Any])
            #expect(object["confidence"] as? String == "high")
            #expect(object["item_count"] as? Int == 20)
            #expect((object["reasons"] as? [String])?.first == "OData's @odata.nextLink")
            #expect(object["end_of_list"] as? String == #"no URL at @odata\.nextLink, an empty page"#)
            let style = try #require(object["style"] as? [String: Any])
            #expect(style["items_key_path"] as? String == "value")
            let kind = try #require(style["kind"] as? [String: Any])
            #expect((kind["next_url"] as? [String: Any])?["key_path"] as? String == #"@odata\.nextLink"#)
        }
    }

    @Test func printsTheSpringStyleInWords() async throws {
        try await RunningFixture.with(itemCount: 95, pageSize: 20) { fixture in
            let outcome = try await BuiltBinary.slippers.run(["detect", fixture.url(.spring)])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("style          page numbers (?page=N from 0)\n"))
            #expect(outcome.stdout.contains("items          content (20 items on the first page)\n"))
            #expect(outcome.stdout.contains("page size      20 (?size=)\n"))
            #expect(outcome.stdout.contains("confidence     high\n"))
            #expect(outcome.stdout.contains("last, true on the last page"))
        }
    }

    @Test func sendsTheHeadersAndFailsInOneLineWithoutThem() async throws {
        try await RunningFixture.with(bearerToken: "s3cret") { fixture in
            let refused = try await BuiltBinary.slippers.run(["detect", fixture.url()])
            #expect(refused.status == 1)
            #expect(refused.stderrLines.count == 1)
            #expect(refused.stderr.hasPrefix("slippers: "))
            let accepted = try await BuiltBinary.slippers.run([
                "detect", fixture.url(), "--header", "Authorization: Bearer s3cret", "--retries", "0",
            ])
            #expect(accepted.status == 0, "\(accepted.stderr)")
            #expect(!accepted.stdout.contains("s3cret"))
        }
    }

    @Test func rejectsAURLThatIsNotHTTP() async throws {
        let outcome = try await BuiltBinary.slippers.run(["detect", "ftp://example.com/list"])
        #expect(outcome.status == 64)
    }
}
