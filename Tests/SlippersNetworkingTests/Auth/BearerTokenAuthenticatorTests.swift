import Foundation
import SlippersNetworking
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct BearerTokenAuthenticatorTests {
    @Test func theTokenIsSentAsABearerHeader() async throws {
        let auth = BearerTokenAuthenticator(token: "abc") { "def" }
        let request = try await auth.authorize(URLRequest(url: URL(string: "https://x.test")!))
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
    }

    @Test func concurrentRefreshesShareOneRenewal() async throws {
        let renewals = Mutex(0)
        let auth = BearerTokenAuthenticator(token: "old") {
            renewals.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(300))
            return "new"
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { try await auth.renewCredentials() } }
            try await group.waitForAll()
        }
        #expect(await auth.token == "new")
        #expect(renewals.withLock { $0 } == 1)
        let request = try await auth.authorize(URLRequest(url: URL(string: "https://x.test")!))
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer new")
    }
}
