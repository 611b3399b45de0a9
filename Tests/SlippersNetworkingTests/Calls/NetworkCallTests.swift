import Foundation
import Slippers
import SlippersNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct NetworkCallTests {
    /// A call whose transport echoes the `page` query item, and fails for page 0.
    private func makeCall() -> NetworkCall<String> {
        let transport = StubTransport { request in
            let page =
                URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?
                .queryItems?.first { $0.name == "page" }?.value ?? "none"
            if page == "0" { return StubResponse(statusCode: 500, body: Data("no page 0".utf8)) }
            return StubResponse(body: Data("page \(page)".utf8))
        }
        let client = APIClient(
            configuration: ServerConfiguration(host: "api.test"),
            options: APIClient.Options(transport: transport, retryPolicy: .none))
        let resource = Resource<String>(endpoint: Endpoint(.get, "items")) { String(decoding: $0.body, as: UTF8.self) }
        return NetworkCall(client: client, resource: resource)
    }

    @Test func everySubscriberReceivesEveryFiring() async throws {
        let call = makeCall()
        let first = call.values()
        let second = call.values()
        await call.fire()
        call.update { $0 = $0.settingQueryItem("page", to: "2") }
        await call.fire()
        call.finish()
        #expect(await Array(first) == ["page none", "page 2"])
        #expect(await Array(second) == ["page none", "page 2"])
    }

    @Test func subscribersSeeOnlyWhatTheyAskFor() async throws {
        let call = makeCall()
        let activity = call.activity()
        let errors = call.errors()
        let values = call.values()
        call.update { $0 = $0.settingQueryItem("page", to: "0") }
        let failed = await call.fire()
        call.update { $0 = $0.settingQueryItem("page", to: "1") }
        let succeeded = await call.fire()
        call.finish()
        #expect(await Array(activity) == [true, false, true, false])
        #expect(await Array(errors).map(\.status) == [500])
        #expect(await Array(values) == ["page 1"])
        #expect(throws: NetworkError.self) { try failed.get() }
        #expect(try succeeded.get() == "page 1")
    }

    @Test func aSubscriberThatLeavesNoLongerReceives() async throws {
        let call = makeCall()
        var events = call.events().makeAsyncIterator()
        await call.fire()
        guard case .started = await events.next() else {
            Issue.record("expected started")
            return
        }
        guard case .succeeded("page none") = await events.next() else {
            Issue.record("expected a value")
            return
        }
        let late = call.values()
        call.update { $0 = $0.settingQueryItem("page", to: "3") }
        await call.fire()
        call.finish()
        #expect(await Array(late) == ["page 3"])
        #expect(call.endpoint.queryItems == [URLQueryItem(name: "page", value: "3")])
    }
}

extension Array {
    /// Collects an async sequence that finishes.
    fileprivate init<S: AsyncSequence>(_ sequence: S) async where S.Element == Element, S.Failure == Never {
        var result: [Element] = []
        for await element in sequence { result.append(element) }
        self = result
    }
}
