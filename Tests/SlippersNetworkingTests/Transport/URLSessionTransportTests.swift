import Foundation
import SlippersFixtures
import SlippersNetworking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct URLSessionTransportTests {
    @Test func errorStatusesAreReturnedNotThrown() async throws {
        try await withFixtureServer { server async throws in
            server.inject(.status(418, body: "teapot"))
            let response = try await loopbackTransport.send(URLRequest(url: server.url(.page)))
            #expect(response.statusCode == 418)
            #expect(response.body == Data("teapot".utf8))
        }
    }

    @Test func aRefusedConnectionIsCannotConnect() async throws {
        let server = FixtureServer()
        try await server.start()
        let url = server.url(.page)
        await server.stop()
        let error = await #expect(throws: NetworkError.self) { try await loopbackTransport.send(URLRequest(url: url)) }
        #expect(error?.kind == .transport(.cannotConnect))
    }

    @Test func aTaskCancelledBeforeSendingThrowsCancellationError() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await loopbackTransport.send(URLRequest(url: URL(string: "http://127.0.0.1:9/")!))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
