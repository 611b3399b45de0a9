import Foundation
import NIOCore
import NIOHTTP1
import Slippers

/// Answers the fixture API's requests for a ``FixtureServer``, one connection at a time.
struct FixtureHandler: Sendable {
    let server: FixtureServer

    /// An answer as the connection sends it.
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String] = [:]
        var body = Data()
        /// Whether only the first half of the body is sent, under the whole body's `Content-Length`,
        /// before the connection closes.
        var isCut = false

        /// Creates an answer.
        init(status: Int, headers: [String: String] = [:], body: Data = Data(), isCut: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = body
            self.isCut = isCut
        }
    }

    /// Serves a connection: each request in turn, until the client closes it or asks to, or an answer cuts it.
    func serve(_ inbound: AsyncStream<HTTPServerRequestPart>, on channel: any Channel) async {
        var head: HTTPRequestHead?
        var body = ByteBuffer()
        for await part in inbound {
            switch part {
            case .head(let received):
                head = received
                body.clear()
            case .body(var chunk):
                body.writeBuffer(&chunk)
            case .end:
                guard let received = head else { continue }
                head = nil
                do {
                    let answer = try await handleRequest(received, body: Data(body.readableBytesView))
                    guard try await send(answer, to: received, on: channel) else { return }
                } catch {
                    return
                }
            }
        }
    }

    /// Writes an answer: the head, then the body in a write of its own, as many servers do (with
    /// Nagle's algorithm on, the body then waits for the client to acknowledge the head). Returns
    /// whether the connection stays open for another request.
    private func send(_ answer: Answer, to request: HTTPRequestHead, on channel: any Channel) async throws -> Bool {
        let keepsAlive = request.isKeepAlive && !answer.isCut
        var headers = HTTPHeaders()
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        if answer.status != 304, answer.status != 204, answer.status >= 200 {
            headers.replaceOrAdd(name: "Content-Length", value: String(answer.body.count))
        }
        if !keepsAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: request.version, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        try await channel.writeAndFlush(HTTPServerResponsePart.head(head))
        let sent = answer.isCut ? answer.body.prefix(answer.body.count / 2) : answer.body
        let part = HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: sent)))
        if answer.isCut {
            // Awaited, so that the bytes reach the client before the connection closes.
            if !sent.isEmpty { try await channel.writeAndFlush(part) }
            return false
        }
        if !sent.isEmpty { channel.write(part, promise: nil) }
        try await channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        return keepsAlive
    }

    /// The answer to one request, after the faults, the gate and the latency the server applies.
    func handleRequest(_ request: HTTPRequestHead, body requestBody: Data) async throws -> Answer {
        let components = URLComponents(string: request.uri)
        let path = components?.path ?? request.uri
        // The path as sent, trailing slash and all: a server routes `/items/1` and `/items/1/` apart.
        let sentPath = components?.percentEncodedPath ?? request.uri
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        var recorded: [String: String] = [:]
        for (name, value) in request.headers { recorded[Self.canonicalName(name)] = value }
        let method = request.method.rawValue
        let postRoute = FixtureServer.PostRoute(rawValue: path)
        let received = FixtureServer.ReceivedRequest(
            method: method, path: path, query: query, headers: recorded,
            bodyLength: requestBody.count, body: request.method == .GET ? Data() : requestBody)
        let fault = server.receive(received)
        await server.passGate()
        if let latency = server.configuration.latency { try await Task.sleep(for: latency) }

        switch fault {
        case .status(let status, let headers, let body)?:
            return Answer(
                status: status, headers: headers.merging(["Content-Type": "application/json"]) { _, json in json },
                body: Data(body.utf8))
        case .delay(let duration)?:
            try await Task.sleep(for: duration)
        default:
            break
        }

        if let respond = server.scripted(path) {
            return Self.answer(respond(received), fault: fault)
        }

        // A list's URL with a trailing slash is the list, as Django routes them.
        let listPath = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let listRoute = FixtureServer.Route(rawValue: listPath)
        let (configuration, catalog, port) = server.snapshot(
            changingTheList: request.method == .GET && listRoute != nil)
        if let token = configuration.requiredBearerToken, recorded["Authorization"] != "Bearer \(token)" {
            return Answer(
                status: 401, headers: ["Content-Type": "application/json"],
                body: Data(#"{"error":"invalid token"}"#.utf8))
        }
        if let answer = server.answerItemRequest(method: method, path: sentPath, headers: recorded, body: requestBody) {
            var headers: [String: String] = ["Content-Type": "application/json"]
            if let etag = answer.etag { headers["ETag"] = etag }
            if let location = answer.location { headers["Location"] = location }
            if request.method != .GET, answer.status < 300, let delay = configuration.writes.answerDelay {
                try await Task.sleep(for: delay)
            }
            return Self.answer(
                FixtureServer.ScriptedResponse(status: answer.status, headers: headers, body: answer.body), fault: fault
            )
        }
        if let postRoute {
            guard request.method == .POST else {
                return Answer(
                    status: 405, headers: ["Content-Type": "application/json", "Allow": "POST"],
                    body: Data(#"{"errors":[{"message":"POST a JSON body to this route"}]}"#.utf8))
            }
            let rendered = FixturePostPage(
                route: postRoute, body: requestBody, configuration: configuration, catalog: catalog
            ).render()
            return Self.answer(
                FixtureServer.ScriptedResponse(
                    status: rendered.status, headers: ["Content-Type": "application/json"],
                    body: Data(rendered.body.utf8)),
                fault: fault)
        }
        guard let route = listRoute else {
            return Answer(status: 404, body: Data(#"{"error":"no such route"}"#.utf8))
        }
        if let refusal = Self.limitRefusal(query: query, configuration: configuration) { return refusal }
        var page = FixturePage(
            route: route, query: query, configuration: configuration, catalog: catalog, port: port,
            isAdvancing: fault != .nonAdvancing)
        page.rawQuery = components?.percentEncodedQuery ?? ""
        if let refusal = page.refusal() ?? page.probedRefusal() {
            return Answer(
                status: refusal.status, headers: ["Content-Type": "application/json"], body: Data(refusal.body.utf8))
        }
        guard let rendered = page.render() else {
            return Answer(status: 400, body: Data(#"{"error":"bad page parameters"}"#.utf8))
        }
        let body = Data((configuration.prettyPrinted ? Self.prettyPrinted(rendered.body) : rendered.body).utf8)
        var headers: [String: String] = ["Content-Type": "application/json"]
        let etag = Self.etag(of: body)
        for (name, value) in rendered.headers { headers[name] = value }
        for (name, value) in configuration.responseHeaders { headers[name] = value }
        var notModified = false
        if configuration.validators == .etag || configuration.validators == .both {
            headers["ETag"] = etag
            notModified = recorded["If-None-Match"] == etag
        }
        if configuration.validators == .lastModified || configuration.validators == .both {
            let lastModified = server.lastModified(ofContent: etag)
            headers["Last-Modified"] = lastModified
            notModified = notModified || recorded["If-Modified-Since"] == lastModified
        }
        if notModified {
            return Answer(status: 304, headers: headers)
        }
        switch fault {
        case .truncatedJSON?:
            return Answer(status: 200, headers: headers, body: body.prefix(body.count / 2))
        case .dropConnection?:
            return Answer(status: 200, headers: headers, body: body, isCut: true)
        default:
            return Answer(status: 200, headers: headers, body: body)
        }
    }

    /// The refusal of a list request whose `limit` is above the configuration's cap, when the
    /// server refuses such requests (``FixtureServer/Configuration/refusedLimitStatus``).
    static func limitRefusal(query: [String: String], configuration: FixtureServer.Configuration) -> Answer? {
        guard let status = configuration.refusedLimitStatus, let cap = configuration.maxLimit,
            let text = query["limit"], let limit = Int(text), limit > cap
        else { return nil }
        let body =
            status == 422
            ? #"{"detail":[{"type":"less_than_equal","loc":["query","limit"],"#
                + #""msg":"Input should be less than or equal to \#(cap)","input":"\#(text)","ctx":{"le":\#(cap)}}]}"#
            : #"{"error":"limit cannot be higher than \#(cap)"}"#
        return Answer(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    /// A JSON body pretty-printed as people read it: every member and element on a line of its own, indented.
    static func prettyPrinted(_ body: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        else { return body }
        return String(decoding: data, as: UTF8.self)
    }

    /// A scripted response as the connection sends it, with a fault that cuts its body applied.
    private static func answer(_ scripted: FixtureServer.ScriptedResponse, fault: FixtureServer.Fault?) -> Answer {
        switch fault {
        case .truncatedJSON?:
            Answer(
                status: scripted.status, headers: scripted.headers, body: scripted.body.prefix(scripted.body.count / 2))
        case .dropConnection?:
            Answer(status: scripted.status, headers: scripted.headers, body: scripted.body, isCut: true)
        default:
            Answer(status: scripted.status, headers: scripted.headers, body: scripted.body)
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
