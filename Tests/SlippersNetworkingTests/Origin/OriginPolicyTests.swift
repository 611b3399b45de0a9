import Foundation
import LocalAPI
import Slippers
import SlippersNetworking
import Testing

/// Credentials go only to the origin of the list's first URL: two fixture servers on two ports prove it.
@Suite struct OriginPolicyTests {
    private static let credentials = [
        "Authorization": "Bearer s3cret-token", "X-Api-Key": "k3y-value", "Cookie": "session=c00kie",
    ]

    /// Runs `body` with a home server and a foreign one (another port: another origin).
    private func withTwoServers(_ body: (FixtureServer, FixtureServer) async throws -> Void) async throws {
        try await withFixtureServer { home in
            try await withFixtureServer { foreign in
                foreign.script("/more") { _ in .json(#"{"results": [{"id": 3}], "next": null}"#) }
                try await body(home, foreign)
            }
        }
    }

    private func source(
        _ home: FixtureServer, path: String = "/start", style: PaginationStyle = .nextURL(),
        policy: OriginPolicy = .sameOrigin
    ) -> HTTPPageSource {
        var client = client(for: home)
        client.originPolicy = policy
        return HTTPPageSource(client: client, url: home.url(path: path), style: style, headers: Self.credentials)
    }

    private func noCredentials(in request: FixtureServer.ReceivedRequest) -> Bool {
        Self.credentials.keys.allSatisfy { request.headers[$0] == nil }
    }

    /// The ways a page can point at the foreign server's `/more`.
    enum Pointer: String, CaseIterable, Sendable {
        case bodyNext, linkHeader, protocolRelative
    }

    private func scriptStart(on home: FixtureServer, pointingTo foreign: FixtureServer, _ pointer: Pointer)
        -> PaginationStyle
    {
        let absolute = foreign.url(path: "/more").absoluteString
        switch pointer {
        case .bodyNext:
            home.script("/start") { _ in .json(#"{"results": [{"id": 1}, {"id": 2}], "next": "\#(absolute)"}"#) }
            return .nextURL()
        case .protocolRelative:
            let relative = "//127.0.0.1:\(foreign.port)/more"
            home.script("/start") { _ in .json(#"{"results": [{"id": 1}, {"id": 2}], "next": "\#(relative)"}"#) }
            return .nextURL()
        case .linkHeader:
            home.script("/start") { _ in
                .json(#"[{"id": 1}, {"id": 2}]"#, headers: ["Link": "<\(absolute)>; rel=\"next\""])
            }
            foreign.script("/more") { _ in .json(#"[{"id": 3}]"#) }
            return .linkHeader(pageSizeParameter: nil)
        }
    }

    @Test(arguments: Pointer.allCases)
    func aNextPageOnAnotherOriginIsRefusedAndNothingIsSentThere(pointer: Pointer) async throws {
        try await withTwoServers { home, foreign in
            let style = scriptStart(on: home, pointingTo: foreign, pointer)
            let source = source(home, style: style)
            let first = try #require(try await source.fetch(.first).page)
            #expect(home.requests.first?.authorization == "Bearer s3cret-token")
            let next = try #require(first.nextToken)
            let error = await #expect(throws: NetworkError.self) { try await source.fetch(PageRequest(token: next)) }
            let origin = "http://127.0.0.1:\(foreign.port)"
            #expect(error?.kind == .originRefused(.notAllowed(try #require(Origin(parsing: origin)))))
            #expect(error?.isTransient == false)
            #expect(error?.description.contains(origin) == true)
            #expect(error?.description.contains("--allow-origin") == true)
            #expect(error?.description.contains("s3cret") == false)
            #expect(foreign.requestCount == 0)
        }
    }

    @Test(arguments: Pointer.allCases)
    func anAllowedOriginIsFollowedWithoutCredentials(pointer: Pointer) async throws {
        try await withTwoServers { home, foreign in
            let style = scriptStart(on: home, pointingTo: foreign, pointer)
            let allowed = try #require(Origin(foreign.baseURL))
            let (items, _) = try await walk(source(home, style: style, policy: OriginPolicy(allowed: [allowed])))
            #expect(integerIDs(items) == [1, 2, 3])
            #expect(foreign.requestCount == 1)
            #expect(foreign.requests.allSatisfy(noCredentials))
            #expect(foreign.requests.first?.headers["Accept"] == "application/json")
        }
    }

    @Test func aTrustedOriginGetsTheCredentials() async throws {
        try await withTwoServers { home, foreign in
            let style = scriptStart(on: home, pointingTo: foreign, .bodyNext)
            let trusted = try #require(Origin(foreign.baseURL))
            let policy = OriginPolicy(allowed: [trusted], trusted: [trusted])
            _ = try await walk(source(home, style: style, policy: policy))
            let request = try #require(foreign.requests.first)
            #expect(request.headers["X-Api-Key"] == "k3y-value")
            #expect(request.headers["Cookie"] == "session=c00kie")
            #expect(request.authorization == "Bearer s3cret-token")
        }
    }

    @Test(arguments: [301, 302, 307, 308])
    func aRedirectToAnotherOriginIsRefused(status: Int) async throws {
        try await withTwoServers { home, foreign in
            home.script("/start") { _ in .redirect(status, to: foreign.url(path: "/more").absoluteString) }
            let error = await #expect(throws: NetworkError.self) { try await source(home).fetch(.first) }
            guard case .originRefused(.notAllowed) = error?.kind else {
                Issue.record("expected an origin refusal, got \(String(describing: error))")
                return
            }
            #expect(foreign.requestCount == 0)
            #expect(home.requestCount == 1)
        }
    }

    @Test(arguments: [301, 302, 307, 308])
    func aRedirectToAnAllowedOriginIsFollowedWithoutCredentials(status: Int) async throws {
        try await withTwoServers { home, foreign in
            home.script("/start") { _ in .redirect(status, to: foreign.url(path: "/more").absoluteString) }
            let allowed = try #require(Origin(foreign.baseURL))
            let page = try #require(
                try await source(home, policy: OriginPolicy(allowed: [allowed])).fetch(.first).page)
            #expect(integerIDs(page.items) == [3])
            #expect(foreign.requests.count == 1)
            #expect(foreign.requests.allSatisfy(noCredentials))
        }
    }

    @Test func aRedirectWithinTheOriginKeepsTheCredentials() async throws {
        try await withFixtureServer { home in
            home.script("/start") { _ in .redirect(302, to: "/elsewhere") }
            home.script("/elsewhere") { _ in .json(#"{"results": [{"id": 9}], "next": null}"#) }
            let page = try #require(try await source(home).fetch(.first).page)
            #expect(integerIDs(page.items) == [9])
            #expect(home.requests.map(\.path) == ["/start", "/elsewhere"])
            #expect(home.requests.last?.headers["X-Api-Key"] == "k3y-value")
        }
    }

    @Test func aRedirectLoopFailsWithAClearError() async throws {
        try await withFixtureServer { home in
            home.script("/start") { _ in .redirect(302, to: "/again") }
            home.script("/again") { _ in .redirect(302, to: "/start") }
            let error = await #expect(throws: NetworkError.self) { try await source(home).fetch(.first) }
            #expect(error?.kind == .redirectFailed(.loop))
            #expect(error?.description.contains("redirects loop") == true)
        }
    }

    @Test func tooManyRedirectsFailWithAClearError() async throws {
        try await withFixtureServer { home in
            home.script("/start") { request in
                .redirect(302, to: "/start?hop=\((Int(request.query["hop"] ?? "0") ?? 0) + 1)")
            }
            let error = await #expect(throws: NetworkError.self) { try await source(home).fetch(.first) }
            #expect(error?.kind == .redirectFailed(.tooMany(limit: 20)))
        }
    }

    @Test func aRedirectToAnotherSchemeNamesTheTarget() async throws {
        try await withFixtureServer { home in
            home.script("/start") { _ in .redirect(302, to: "ftp://files.example.com/list") }
            let error = await #expect(throws: NetworkError.self) { try await source(home).fetch(.first) }
            #expect(error?.kind == .originRefused(.notHTTP(scheme: "ftp")))
            #expect(error?.description.contains("ftp://files.example.com/list") == true)
        }
    }

    @Test func httpsDownToHttpIsRefusedEvenWhenAllowed() throws {
        let home = try #require(Origin(parsing: "https://api.example.com"))
        let plain = try #require(Origin(parsing: "http://api.example.com"))
        let policy = OriginPolicy(allowed: [plain], trusted: [plain])
        let url = try #require(URL(string: "http://api.example.com/posts?page=2"))
        #expect(policy.decision(for: url, home: home) == .refused(.downgrade(plain)))
    }

    @Test func originsCompareSchemeHostAndPortWithDefaultPorts() throws {
        let a = try #require(Origin(URL(string: "https://API.example.com/a?b=1")!))
        let b = try #require(Origin(URL(string: "https://api.example.com:443/other")!))
        #expect(a == b)
        #expect(a.description == "https://api.example.com")
        #expect(Origin(parsing: "http://127.0.0.1:8080")?.port == 8080)
        #expect(Origin(parsing: "https://api.example.com/posts") == nil)
        #expect(Origin(URL(string: "https://api.example.com:8443")!) != a)
    }
}
