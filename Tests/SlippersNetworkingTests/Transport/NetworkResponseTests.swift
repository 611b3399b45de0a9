import Foundation
import SlippersNetworking
import Testing

@Suite struct NetworkResponseTests {
    @Test func headersAreLookedUpWithoutRegardToCase() {
        let response = NetworkResponse(statusCode: 200, headers: ["etag": "\"a\"", "Content-Type": "text/plain"])
        #expect(response.header("ETag") == "\"a\"")
        #expect(response.header("content-type") == "text/plain")
        #expect(response.header("Link") == nil)
    }

    @Test func retryAfterIsReadAsSecondsOrAsAnHTTPDate() {
        func retryAfter(_ value: String) -> Duration? {
            NetworkResponse(statusCode: 503, headers: ["Retry-After": value]).retryAfter
        }
        #expect(retryAfter("120") == .seconds(120))
        #expect(retryAfter("Sun, 06 Nov 1994 08:49:37 GMT") == .zero)
        let future = retryAfter("Fri, 31 Dec 2100 23:59:59 GMT")
        #expect(future.map { $0 > .seconds(86_400 * 365) } == true)
        #expect(retryAfter("soon") == nil)
        #expect(NetworkResponse(statusCode: 503).retryAfter == nil)
    }
}
