import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Testing

/// Page 2 decides: each way of asking detection proposes is checked by the answer to its request,
/// in order, at most four requests, and the page that decides is kept.
@Suite struct HTTPPageSourceProbingTests {
    private func probed(_ server: FixtureServer, _ route: FixtureServer.Route) async throws -> (
        source: HTTPPageSource, firstPage: Page<RawItem>?, secondPage: Page<RawItem>?,
        detection: PaginationStyle.Detection, advanced: Bool
    ) {
        let found = try await HTTPPageSource.detect(
            client: client(for: server), url: server.url(route), pageTwo: .inferred)
        return (found.source, found.firstPage, found.secondPage, found.detection, found.advanced)
    }

    @Test func theConventionalPageParameterIsAskedBeforeTheBodysName() async throws {
        try await withFixtureServer(.init(itemCount: 95, pageSize: 10)) { server async throws in
            let meta = try await probed(server, .metaPages)
            #expect(meta.source.style.kind == .pageNumber(parameter: "page", firstPage: 1))
            #expect(meta.advanced)
            #expect(meta.secondPage?.items.first?.key == .integer(11))
            #expect(server.requestCount == 2)

            server.resetRequests()
            // A server that takes only its body's name: ?page= brings page 1 again, ?current_page= advances.
            let classic = try await probed(server, .litestarClassic)
            #expect(classic.source.style.kind == .pageNumber(parameter: "current_page", firstPage: 1))
            #expect(classic.detection.tried.count == 2, "\(classic.detection.tried)")
            #expect(server.requestCount == 3)
        }
    }

    @Test func anOpaqueCursorIsSentBackUnderTheFirstNameThatAdvances() async throws {
        try await withFixtureServer(.init(itemCount: 95, pageSize: 10)) { server async throws in
            let opaque = try await probed(server, .opaquePages)
            #expect(opaque.source.style.kind == .cursor(parameter: "cursor", keyPath: "next_page"))
            #expect(opaque.advanced)
        }
    }

    @Test func aCursorWhoseParameterNoConventionalNameTakesFailsNamingItsPath() async throws {
        try await withFixtureServer(.init()) { server async throws in
            server.script("/tokens") { request in
                let start = Int(request.query["tok"] ?? "0") ?? 0
                let items = (start + 1...start + 10).map { #"{"id":\#($0)}"# }.joined(separator: ",")
                return .json(#"{"items":[\#(items)],"total":40,"next_page":"t\#(start + 10)x"}"#)
            }
            let url = server.url(path: "/tokens")
            // Six tries, none advancing: the cursor's path is named, its parameter left to the caller,
            // and the line says the tries in a few words.
            await #expect {
                _ = try await HTTPPageSource.detect(client: client(for: server), url: url, pageTwo: .inferred)
            } throws: { error in
                guard let failure = error as? HTTPPageSource.ProbeFailure else { return false }
                return failure.tried.count == 6 && failure.tried.allSatisfy { $0.hasSuffix("brought page 1 again") }
                    && "\(failure)".contains("--cursor-path next_page --cursor-param NAME")
                    && "\(failure)".contains(
                        "?cursor=, ?next_page=, ?from=, ?after=, ?since=, ?token= from next_page brought page 1 again")
            }
            #expect(server.requestCount == 1 + 6)
        }
    }

    @Test func aPageParameterRefusedByNameIsAskedForNextUnderItsUnderscoreNames() async throws {
        try await withFixtureServer(.init(itemCount: 57, pageSize: 10)) { server async throws in
            // ?page=1 is refused for its name ("page isn't a valid field name"): ?page=2 is not asked,
            // ?_page=1 is refused alike, ?__page=1 brings page 1 again (pages count from 1), ?__page=2 advances.
            let filters = try await probed(server, .fieldFilters)
            #expect(filters.advanced)
            #expect(filters.source.style.kind == .pageNumber(parameter: "__page", firstPage: 1))
            #expect(filters.source.style.pageSizeParameter == "__page_size")
            #expect(filters.secondPage?.items.first?.key == .integer(11))
            #expect(filters.detection.tried.count == 4, "\(filters.detection.tried)")
            #expect(filters.detection.tried.first?.hasPrefix("?page=1 was refused (400") == true)
            #expect(server.requestCount == 1 + 4)
        }
    }

    @Test func aRefusedParameterWithNothingElseToTryFailsInOneLine() async throws {
        _ = try await withFixtureServer(.init()) { server async throws in
            // Every parameter but ?pg= is refused as a field it does not have, whatever its name.
            server.script("/filters") { request in
                if let name = request.query.keys.sorted().first(where: { $0 != "pg" }) {
                    return FixtureServer.ScriptedResponse(
                        status: 400, body: Data(#"{"error":"\#(name) isn't a valid field name"}"#.utf8))
                }
                let page = Int(request.query["pg"] ?? "1") ?? 1
                let items = ((page - 1) * 10 + 1...page * 10).map { #"{"id":\#($0)}"# }.joined(separator: ",")
                return .json(#"{"rows":[\#(items)]}"#)
            }
            await #expect {
                _ = try await HTTPPageSource.detect(
                    client: client(for: server), url: server.url(path: "/filters"), pageTwo: .inferred)
            } throws: { error in
                let text = "\(error)"
                guard let failure = error as? HTTPPageSource.ProbeFailure else { return false }
                // Five ways: ?page=1, ?_page=1, ?__page=1, then ?offset= and ?skip= (whose ?limit= is refused).
                return failure.tried.count == 5 && text.contains("?page=1 was refused (400")
                    && text.contains("?__page=1 was refused (400") && text.contains("--page-param NAME")
            }
        }
    }

    @Test func aContinuationObjectGoesBackMemberByMemberFormEncoded() async throws {
        try await withFixtureServer(.init(itemCount: 35, pageSize: 10)) { server async throws in
            let continued = try await probed(server, .continuation)
            #expect(continued.advanced)
            let source = continued.source
            var token = continued.secondPage?.nextToken
            var ids = (continued.firstPage?.items ?? []) + (continued.secondPage?.items ?? [])
            while let next = token, let page = try await source.fetch(PageRequest(token: next)).page {
                ids += page.items
                token = page.nextToken
            }
            #expect(ids.map(\.key) == (1...35).map { ItemKey.integer($0) })
        }
    }
}
