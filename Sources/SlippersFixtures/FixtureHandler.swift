import FlyingFox
import Foundation
import Slippers

/// Answers the fixture API's requests for a ``FixtureServer``.
struct FixtureHandler: HTTPHandler {
    let server: FixtureServer

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var query: [String: String] = [:]
        for item in request.query { query[item.name] = item.value }
        var recorded: [String: String] = [:]
        for (header, value) in request.headers { recorded[Self.canonicalName(header.rawValue)] = value }
        let requestBody = try await request.bodyData
        let postRoute = FixtureServer.PostRoute(rawValue: request.path)
        let received = FixtureServer.ReceivedRequest(
            method: request.method.rawValue, path: request.path, query: query, headers: recorded,
            bodyLength: requestBody.count, body: request.method == .GET ? Data() : requestBody)
        let fault = server.receive(received)
        await server.passGate()
        if let latency = server.configuration.latency { try await Task.sleep(for: latency) }

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

        if let respond = server.scripted(request.path) {
            return Self.response(respond(received), fault: fault)
        }

        let (configuration, catalog, port) = server.state.withLock { ($0.configuration, $0.catalog, $0.port) }
        if let token = configuration.requiredBearerToken, request.headers[.authorization] != "Bearer \(token)" {
            return HTTPResponse(
                statusCode: .unauthorized, headers: [.contentType: "application/json"],
                body: Data(#"{"error":"invalid token"}"#.utf8))
        }
        // The path as sent, trailing slash and all: a server routes `/items/1` and `/items/1/` apart.
        if let answer = server.answerItemRequest(
            method: request.method.rawValue, path: request.target.path(), headers: recorded, body: requestBody)
        {
            var headers: [String: String] = ["Content-Type": "application/json"]
            if let etag = answer.etag { headers["ETag"] = etag }
            if let location = answer.location { headers["Location"] = location }
            if request.method != .GET, answer.status < 300, let delay = configuration.writes.answerDelay {
                try await Task.sleep(for: delay)
            }
            return Self.response(
                FixtureServer.ScriptedResponse(status: answer.status, headers: headers, body: answer.body), fault: fault
            )
        }
        if let postRoute {
            guard request.method == .POST else {
                return HTTPResponse(
                    statusCode: .methodNotAllowed,
                    headers: [.contentType: "application/json", HTTPHeader("Allow"): "POST"],
                    body: Data(#"{"errors":[{"message":"POST a JSON body to this route"}]}"#.utf8))
            }
            let rendered = FixturePostPage(
                route: postRoute, body: requestBody, configuration: configuration, catalog: catalog
            ).render()
            return Self.response(
                FixtureServer.ScriptedResponse(
                    status: rendered.status, headers: ["Content-Type": "application/json"],
                    body: Data(rendered.body.utf8)),
                fault: fault)
        }
        // A list's URL with a trailing slash is the list, as Django routes them.
        let listPath =
            request.path.count > 1 && request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        guard let route = FixtureServer.Route(rawValue: listPath) else {
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
        for (name, value) in rendered.headers { headers[HTTPHeader(name)] = value }
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

    /// A scripted response as FlyingFox sends it, with a fault that cuts its body applied.
    private static func response(_ scripted: FixtureServer.ScriptedResponse, fault: FixtureServer.Fault?)
        -> HTTPResponse
    {
        var headers = HTTPHeaders()
        for (name, value) in scripted.headers { headers[HTTPHeader(name)] = value }
        let status = HTTPStatusCode(scripted.status, phrase: "Scripted")
        switch fault {
        case .truncatedJSON?:
            return HTTPResponse(
                statusCode: status, headers: headers, body: scripted.body.prefix(scripted.body.count / 2))
        case .dropConnection?:
            let sent = FailingByteSequence(prefix: Array(scripted.body.prefix(scripted.body.count / 2)))
            return HTTPResponse(
                statusCode: status, headers: headers, body: HTTPBodySequence(from: sent, count: scripted.body.count))
        default:
            return HTTPResponse(statusCode: status, headers: headers, body: scripted.body)
        }
    }

    /// A header name with each word capitalised, as `If-None-Match`, whatever case the client sent.
    static func canonicalName(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            .joined(separator: "-")
    }

    /// A strong ETag of the content: FNV-1a, 64 bits, in hex.
    static func etag(of body: Data) -> String {
        "\"" + FNV1a.hash(body).shortHex + "\""
    }
}
