import Foundation
import LocalAPI
import Slippers
import SlippersSQLite
import SlippersTestSupport
import Testing

/// `slippers sync` against hostile and unlucky servers: credentials stay home, faults are retried, lists end.
@Suite struct SyncHardeningTests {
    private static let secret = "Bearer t0p-s3cret"

    @Test(arguments: [UInt64(1), 2, 3])
    func aSyncThroughTenPercentEachOf500DropsAndCutJSONEndsWithEveryItem(seed: UInt64) async throws {
        try await RunningFixture.with(itemCount: 5_000, pageSize: 50) { fixture in
            fixture.server.injectRandomly(
                [(.status(500, body: "boom"), 0.1), (.dropConnection, 0.1), (.truncatedJSON, 0.1)], seed: seed)
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.url(.next), "--db", directory.path(), "--retry-delay", "0.002",
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("end reached, 5000 items cached"), "\(outcome.stdout)")
            #expect(outcome.stdout.contains("retries)") || outcome.stdout.contains("retry)"), "\(outcome.stdout)")
            fixture.server.injectRandomly([], seed: 0)
            let export = try await BuiltBinary.slippers.run([
                "export", fixture.url(.next), "--format", "ndjson", "--db", directory.path(),
            ])
            #expect(try exportedIDs(export.stdout) == Array(1...5_000))
        }
    }

    @Test func aNextPageOnAnotherOriginIsRefusedWithOneLineAndNoCredentialCrosses() async throws {
        try await RunningFixture.with { home in
            try await RunningFixture.with { foreign in
                let next = foreign.url(.next)
                home.server.script("/start") { _ in .json(#"{"results": [{"id": 1}], "next": "\#(next)"}"#) }
                let directory = try TemporaryDirectory()
                let start = home.server.url(path: "/start").absoluteString
                let refused = try await BuiltBinary.slippers.run([
                    "sync", start, "--db", directory.path(), "--header", "Authorization: \(Self.secret)",
                    "--header", "X-Api-Key: k3y",
                ])
                #expect(refused.status == 1)
                #expect(refused.stderrLines.count == 1, "\(refused.stderr)")
                #expect(refused.stderr.contains("--allow-origin http://127.0.0.1:\(foreign.server.port)"))
                #expect(!refused.stderr.contains("s3cret") && !refused.stderr.contains("k3y"))
                #expect(foreign.server.requestCount == 0)

                let allowed = try await BuiltBinary.slippers.run([
                    "sync", start, "--db", directory.path(), "--header", "Authorization: \(Self.secret)",
                    "--header", "X-Api-Key: k3y", "--allow-origin", foreign.server.baseURL.absoluteString,
                ])
                #expect(allowed.status == 0, "\(allowed.stderr)")
                // Id 1 is on the start page and on the foreign list: 231 items fetched, 230 distinct.
                #expect(allowed.stdout.contains("end reached, 230 items cached"), "\(allowed.stdout)")
                #expect(foreign.server.requestCount > 0)
                #expect(
                    foreign.server.requests.allSatisfy { $0.authorization == nil && $0.headers["X-Api-Key"] == nil })
                #expect(home.server.requests.allSatisfy { $0.authorization == Self.secret })
            }
        }
    }

    @Test func aTrustedOriginGetsTheHeaders() async throws {
        try await RunningFixture.with { home in
            try await RunningFixture.with { foreign in
                let next = foreign.url(.next)
                home.server.script("/start") { _ in .json(#"{"results": [{"id": 1}], "next": "\#(next)"}"#) }
                let directory = try TemporaryDirectory()
                let outcome = try await BuiltBinary.slippers.run([
                    "sync", home.server.url(path: "/start").absoluteString, "--db", directory.path(),
                    "--header", "Authorization: \(Self.secret)", "--trust-origin",
                    foreign.server.baseURL.absoluteString,
                ])
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(foreign.server.requests.allSatisfy { $0.authorization == Self.secret })
            }
        }
    }

    @Test func anEndlessListStopsWithAClearErrorAndARerunAddsNothing() async throws {
        try await RunningFixture.with { fixture in
            // Every page has a fresh next URL and the same items.
            fixture.server.script("/endless") { request in
                let n = (Int(request.query["n"] ?? "0") ?? 0) + 1
                let next = fixture.server.url(path: "/endless", query: ["n": String(n)]).absoluteString
                return .json(#"{"results": [{"id": 1}, {"id": 2}], "next": "\#(next)"}"#)
            }
            let directory = try TemporaryDirectory()
            let url = fixture.server.url(path: "/endless").absoluteString
            for _ in 0..<3 {
                let outcome = try await BuiltBinary.slippers.run(["sync", url, "--db", directory.path()])
                #expect(outcome.status == 1)
                #expect(outcome.stderrLines.count == 1)
                #expect(outcome.stderr.contains("same items"), "\(outcome.stderr)")
                let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
                #expect(try store.lists().first?.pageCount == 1)
            }
            #expect(fixture.server.requestCount < 10)
        }
    }

    @Test func maxItemsBoundsARun() async throws {
        try await RunningFixture.with(itemCount: 230, pageSize: 50) { fixture in
            let directory = try TemporaryDirectory()
            let outcome = try await BuiltBinary.slippers.run([
                "sync", fixture.url(), "--db", directory.path(), "--max-items", "120",
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("synced 150 items in 3 pages"), "\(outcome.stdout)")
            #expect(outcome.stdout.contains("stopped after --max-items 120"))
        }
    }

    @Test func aLongURLAnswered414PrintsAShortLine() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.inject(.status(414, body: "URI Too Long"), count: 1)
            let directory = try TemporaryDirectory()
            let url = fixture.url(.page, query: ["filter": String(repeating: "x", count: 6_000)])
            let outcome = try await BuiltBinary.slippers.run([
                "sync", url, "--db", directory.path(), "--retries", "0", "--retry-for", "0",
            ])
            #expect(outcome.status == 1)
            #expect(outcome.stderrLines.count == 1)
            #expect(outcome.stderr.count < 600, "\(outcome.stderr.count) characters: \(outcome.stderr.prefix(300))")
            #expect(outcome.stderr.contains("HTTP 414"))
        }
    }

    @Test func aByteOrderMarkIsSkippedAndInvalidUTF8IsRefusedWithNothingStored() async throws {
        try await RunningFixture.with { fixture in
            fixture.server.script("/bom") { request in
                let items = (request.query["page"] ?? "1") == "1" ? #"[{"id": 1, "t": "é"}]"# : "[]"
                return .init(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data([0xEF, 0xBB, 0xBF]) + Data(items.utf8))
            }
            fixture.server.script("/latin1") { _ in
                .init(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"[{"id": 1, "t": ""#.utf8) + Data([0xE9]) + Data(#""}]"#.utf8))
            }
            let directory = try TemporaryDirectory()
            let bom = try await BuiltBinary.slippers.run([
                "sync", fixture.server.url(path: "/bom").absoluteString, "--db", directory.path(),
            ])
            #expect(bom.status == 0, "\(bom.stderr)")
            let latin1 = try await BuiltBinary.slippers.run([
                "sync", fixture.server.url(path: "/latin1").absoluteString, "--db", directory.path(),
            ])
            #expect(latin1.status == 1)
            #expect(latin1.stderr.contains("not valid UTF-8"), "\(latin1.stderr)")
            let store = try SQLiteCache(path: directory.path(), mode: .readOnly)
            #expect(try store.lists().count == 1)
            let export = try await BuiltBinary.slippers.run([
                "export", fixture.server.url(path: "/bom").absoluteString, "--db", directory.path(),
            ])
            #expect((try? JSONSerialization.jsonObject(with: Data(export.stdout.utf8))) != nil, "\(export.stdout)")
        }
    }
}
