import FlyingFox
import Foundation

/// Answers the fixture API's requests for a ``FixtureServer``.
struct FixtureHandler: HTTPHandler {
    let server: FixtureServer

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var query: [String: String] = [:]
        for item in request.query { query[item.name] = item.value }
        var recorded: [String: String] = [:]
        for name in [
            "If-None-Match", "If-Modified-Since", "Authorization", "Accept", "Accept-Language", "Content-Type",
        ] {
            if let value = request.headers[HTTPHeader(name)] { recorded[name] = value }
        }
        let bodyLength = try await request.bodyData.count
        let fault = server.receive(
            FixtureServer.ReceivedRequest(
                method: request.method.rawValue, path: request.path, query: query, headers: recorded,
                bodyLength: bodyLength))
        await server.passGate()

        switch fault {
        case .status(let status, let headers, let body)?:
            var responseHeaders = HTTPHeaders()
            for (name, value) in headers { responseHeaders[HTTPHeader(name)] = value }
            responseHeaders[.contentType] = "application/json"
            return HTTPResponse(
                statusCode: HTTPStatusCode(status, phrase: "Fault"), headers: responseHeaders, body: Data(body.utf8))
        case .delay(let duration)?:
            try await Task.sleep(for: duration)
        default:
            break
        }

        let (configuration, catalog, port) = server.state.withLock { ($0.configuration, $0.catalog, $0.port) }
        if let token = configuration.requiredBearerToken, request.headers[.authorization] != "Bearer \(token)" {
            return HTTPResponse(
                statusCode: .unauthorized, headers: [.contentType: "application/json"],
                body: Data(#"{"error":"invalid token"}"#.utf8))
        }
        guard let route = FixtureServer.Route(rawValue: request.path) else {
            return HTTPResponse(statusCode: .notFound, body: Data(#"{"error":"no such route"}"#.utf8))
        }
        let page = FixturePage(
            route: route, query: query, configuration: configuration, catalog: catalog, port: port,
            isAdvancing: fault != .nonAdvancing)
        guard let rendered = page.render() else {
            return HTTPResponse(statusCode: .badRequest, body: Data(#"{"error":"bad page parameters"}"#.utf8))
        }
        let body = Data(rendered.body.utf8)
        var headers = HTTPHeaders()
        headers[.contentType] = "application/json"
        let etag = Self.etag(of: body)
        if let link = rendered.link { headers[HTTPHeader("Link")] = link }
        for (name, value) in configuration.responseHeaders { headers[HTTPHeader(name)] = value }
        var notModified = false
        if configuration.validators == .etag || configuration.validators == .both {
            headers[.eTag] = etag
            notModified = request.headers[.ifNoneMatch] == etag
        }
        if configuration.validators == .lastModified || configuration.validators == .both {
            let lastModified = server.lastModified(ofContent: etag)
            headers[HTTPHeader("Last-Modified")] = lastModified
            notModified = notModified || request.headers[HTTPHeader("If-Modified-Since")] == lastModified
        }
        if notModified {
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        switch fault {
        case .truncatedJSON?:
            return HTTPResponse(statusCode: .ok, headers: headers, body: body.prefix(body.count / 2))
        case .dropConnection?:
            let sent = FailingByteSequence(prefix: Array(body.prefix(body.count / 2)))
            return HTTPResponse(
                statusCode: .ok, headers: headers, body: HTTPBodySequence(from: sent, count: body.count))
        default:
            return HTTPResponse(statusCode: .ok, headers: headers, body: body)
        }
    }

    /// A strong ETag of the content: FNV-1a, 64 bits, in hex.
    static func etag(of body: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\"" + String(hash, radix: 16) + "\""
    }
}
