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
        try await HTTPPageSource.probedDetecting(
            client: client(for: server), url: server.url(route), headers: [:], stub: nil, check: .inferred,
            adjusting: { $0 })
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
            // Four tries, none advancing: the cursor's path is named, its parameter left to the caller.
            await #expect {
                _ = try await HTTPPageSource.probedDetecting(
                    client: client(for: server), url: url, headers: [:], stub: nil, check: .inferred,
                    adjusting: { $0 })
            } throws: { error in
                guard let failure = error as? HTTPPageSource.ProbeFailure else { return false }
                return failure.tried.count == 4 && failure.tried.allSatisfy { $0.hasSuffix("brought page 1 again") }
                    && "\(failure)".contains("--cursor-path next_page --cursor-param NAME")
            }
            #expect(server.requestCount == 1 + 4)
        }
    }

    @Test func aRefusedParameterWithNothingElseToTryFailsInOneLine() async throws {
        _ = try await withFixtureServer(.init(itemCount: 57, pageSize: 10)) { server async throws in
            await #expect {
                _ = try await probed(server, .fieldFilters)
            } throws: { error in
                let text = "\(error)"
                return error is HTTPPageSource.ProbeFailure && text.contains("?page=2 was refused (400")
                    && text.contains("--page-param NAME")
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
