import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `PageSource` over a paginated HTTP/JSON API, delivering each item's JSON bytes as the server sent them.
///
/// The source knows the URL of the first page and the ``PaginationStyle``;
/// each `PageToken` it returns is self-contained (a page number, an
/// offset, a cursor or a full URL), so paging resumes in another process from
/// the stored style and token alone. Items are cut out of the response by
/// ``JSONScanner``, without decoding, and keyed by their id field.
///
/// The end of the list is reached when there is no next link or cursor, when
/// a page is empty, when the total is reached, or when the style's
/// ``PaginationStyle/EndSignal`` says so (a page count reached, `has_more`
/// false, `last` true); page-number lists also stop at a short page and at
/// `total_pages`, cursor lists at `"has_more": false`. The last page
/// therefore has no next token, and no request is sent past it. A next token
/// or URL equal to the one that fetched the page throws
/// ``NetworkError/Kind/notAdvancing(token:)`` rather than looping. With validators in the request, the request is
/// conditional and a `304` answer is `PageResult.notModified(_:)`.
///
/// For example:
///
/// ```swift
/// let source = HTTPPageSource(
///     client: client,
///     url: URL(string: "https://api.example.com/posts")!,
///     style: .pageNumber(firstPage: 1, pageSize: 50, itemsKeyPath: "results"))
/// let first = try await source.fetch(.first).page
/// let posts = source.decoding(Post.self)  // typed items
/// ```
public struct HTTPPageSource: PageSource {
    /// The client that sends the requests, with its retries and authentication.
    public var client: APIClient
    /// The URL of the first page, as the user gave it (its own query items are kept).
    public var url: URL
    /// How the API pages.
    public var style: PaginationStyle
    /// Headers sent with every page request; they are not part of the ``listKey``.
    public var headers: [String: String]
    /// The canned pages answered when stubbing is on; see ``stubbed(_:always:)``.
    public var stub: PageStub?
    /// Whether this source answers from its ``stub`` even when the client's configuration does not stub.
    public var shouldStub = false
    /// The parameters that name a page of a newest-first list by an item, as declared; the ones
    /// left `nil` are learnt from the server's links (``knownFeedParameters``).
    public var feedParameters: FeedParameters?
    /// What this source and its copies learnt of the server while they asked it for pages.
    let learnt = LearntServerLimits()
    /// The feed parameters this source and its copies learnt from the links of their pages.
    let learntFeed = LearntFeedParameters()
    /// The cursors this source and its copies learnt to make from the first page (``PredictedCursors``).
    let learntCursors = LearntCursors()
    /// Whether a page whose next cursor is the one it was asked with is read as it is, for the
    /// probe to tell a server that ignored the cursor (page 1 again) from one that repeats it.
    var readsRepeatedCursors = false

    /// Creates a source from the URL of the first page.
    ///
    /// The URL is absolute: the host and route of the client's ``ServerConfiguration``
    /// do not apply to it, but its ``ServerConfiguration/shouldStub`` does: when it is on,
    /// pages come from the source's ``stub``, and a source without one fails with
    /// ``NetworkError/Kind/missingStub(path:)`` instead of reaching the network.
    public init(client: APIClient, url: URL, style: PaginationStyle, headers: [String: String] = [:]) {
        self.client = client
        self.url = url
        self.style = style
        self.headers = headers
    }

    /// Creates a source from an endpoint of the client's configuration.
    ///
    /// The endpoint's stub, if any, answers every page while stubbing is on (for the
    /// configuration or the endpoint): a list of one page. Give a source pages with ``stubbed(_:always:)``.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidURL(_:)``.
    public init(client: APIClient, endpoint: Endpoint, style: PaginationStyle) throws {
        self.init(
            client: client,
            url: try client.configuration.url(path: endpoint.path, queryItems: endpoint.queryItems),
            style: style, headers: endpoint.headers)
        stub = endpoint.stub.map(PageStub.response)
        shouldStub = endpoint.shouldStub
    }

    /// The canonical key of the list: scheme, host, port and path, with the
    /// query items sorted and the pagination parameters left out. Headers never count,
    /// and neither do the values of credential parameters (``isCredentialParameter(_:)``),
    /// which read `***`: a cache file never holds a credential.
    ///
    /// Two sources of the same list, whatever page they start at, have the same key. A list
    /// asked for by POST adds a fingerprint of what it posts (`#graphql:repository.issues:…`,
    /// `#post:…`): two queries of one URL are two lists.
    public var listKey: String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        components.user = nil
        components.password = nil
        components.fragment = nil
        let excluded = style.paginationParameters
        let items = CredentialQuery.masking((components.queryItems ?? []).filter { !excluded.contains($0.name) })
            .sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        components.queryItems = items.isEmpty ? nil : items
        if components.path.isEmpty { components.path = "/" }
        let key = components.string ?? url.absoluteString
        return postedFingerprint.map { "\(key)#\($0)" } ?? key
    }

    /// Fetches the page a request names, conditionally when it carries validators.
    ///
    /// A request that asks for the item before the page (``Slippers/PageRequest/overlapsPreviousPage``)
    /// of an offset list whose page size the source sets, of a range list, or of a next-URL list
    /// that advances an offset by the page size its URL sets, asks for one item more from one item
    /// earlier; when the server refuses that request (`400`, `422`) or sends fewer items than it
    /// asked for while its list goes on (it caps the page size), the page is asked for again
    /// plainly, and comes without the item before. The source then knows the largest page size
    /// the server takes (``learntStyle``) and asks every page after it plainly.
    ///
    /// - throws: ``NetworkError`` (transport, HTTP, decoding, a token that does
    ///   not fit the style, a next page that does not advance);
    ///   `CancellationError` when the task is cancelled.
    public func fetch(_ request: PageRequest) async throws -> PageResult<RawItem> {
        if request.overlapsPreviousPage, request.validators == nil, request.anchor == nil,
            let overlapping = overlappingRequest(for: request.token)
        {
            if let page = try await fetchWidened(request, overlapping) { return .page(page) }
            var plain = request
            plain.overlapsPreviousPage = false
            return try await fetch(plain)
        }
        var urlRequest = try self.urlRequest(for: request.token)
        if let anchor = request.anchor { urlRequest.url = try anchoredURL(anchor) }
        let pageURL = urlRequest.url ?? url
        // A POST's response is not HTTP-cacheable: never asked for conditionally.
        if let validators = request.validators, !style.isPosted, request.anchor == nil {
            if let etag = validators.etag { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let lastModified = validators.lastModified {
                urlRequest.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
            }
        }
        var client = try sendingClient()
        if !request.retriesTransientFailures { client.retryPolicy = .none }
        return try await client.send(urlRequest, home: homeOrigin) { response in
            let validators = PageValidators(
                etag: response.header("ETag"), lastModified: response.header("Last-Modified"))
            if response.statusCode == 304 {
                return .notModified(
                    PageValidators(
                        etag: validators.etag ?? request.validators?.etag,
                        lastModified: validators.lastModified ?? request.validators?.lastModified))
            }
            var page = try page(
                from: response, token: request.token, requestURL: pageURL,
                validators: style.isPosted ? PageValidators() : validators)
            // A POST's response is not HTTP-cacheable (RFC 9111, 9.3.3): its headers say nothing of freshness.
            if !style.isPosted {
                page.caching = PageCaching(header: response.header)
                page.caching.varyKey = PageCaching.varyKey(
                    for: page.caching.vary, requestHeader: { urlRequest.value(forHTTPHeaderField: $0) })
            }
            return .page(page)
        }
    }

    /// The origin of the list's first URL: the only one that gets the headers and credentials, unless trusted.
    var homeOrigin: Origin? { Origin(url) }

    /// The URL that fetches the page at a token; the first page's for `nil`.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidToken(_:)``
    ///   when the token does not fit the style.
    package func requestURL(for token: PageToken?) throws -> URL {
        try style.continuation.requestURL(for: token, in: self)
    }

    /// The URL of a next-URL or `Link` list's page at `token`, the next URL itself; the list's own for `nil`.
    func linkedURL(for token: PageToken?) throws -> URL {
        guard let token else { return try settingQuery([:]) }
        guard let next = URL(string: token.rawValue), let scheme = next.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else { throw NetworkError(.invalidToken(token.rawValue), url: url) }
        return sentURL(next)
    }

    /// A token as a page number or an offset.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidToken(_:)`` for another token.
    func integer(_ token: PageToken) throws -> Int {
        guard let value = token.intValue, value >= 0 else {
            throw NetworkError(.invalidToken(token.rawValue), url: url)
        }
        return value
    }

    func settingQuery(_ values: [String: String]) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw NetworkError(.invalidURL(NetworkError.redacting(url)))
        }
        var values = values
        if let parameter = style.pageSizeParameter, let size = style.pageSize { values[parameter] = String(size) }
        guard !values.isEmpty else { return url }
        Self.setQueryItems(values, in: &components)
        guard let result = components.url else { throw NetworkError(.invalidURL(NetworkError.redacting(url))) }
        return result
    }

    /// What the body shows instead, when the items are not where the style says or have no id member:
    /// the arrays of objects it holds, or the one id-like member whose values differ on the page.
    private func itemsAdvice(_ scanner: JSONScanner, for error: JSONScanner.ScanError) -> String {
        guard style.continuation.advisesItemsPath else { return "" }
        let path = PaginationStyle.components(style.itemsKeyPath)
        guard let array = scanner.value(at: path), array.kind == .array else {
            let found = scanner.arraysOfObjects(in: scanner.root, at: [], depth: 4).map { JSONKeyPath(keys: $0).text }
            return found.isEmpty
                ? "; the body holds no array of objects"
                : "; the arrays of objects in the body are at \(found.joined(separator: ", ")) (--items-path PATH)"
        }
        guard error.reason.hasSuffix("has no \"\(style.idField)\"") else { return "" }
        let items = scanner.elements(of: array)
        let idLike = scanner.distinctIDMembers(items: items)
        if idLike.count > 1 {
            return "; \(idLike.joined(separator: " and ")) are named like ids and differ from item to item: give "
                + "the one that keys the items (--id-field NAME)"
        }
        guard let field = idLike.first ?? scanner.distinctMember(items: items) else { return "" }
        return "; \(field) is the member whose values differ from item to item (--id-field \(field))"
    }

    /// This URL with the members of a continuation token (`name=value&…`, percent-encoded) set in
    /// its query, each replacing a parameter of the same name, and the page size.
    func settingContinuation(_ encoded: String) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw NetworkError(.invalidURL(NetworkError.redacting(url)))
        }
        var sent = encoded.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return URLQueryItem(name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : "")
        }
        if let parameter = style.pageSizeParameter, let size = style.pageSize {
            sent.append(URLQueryItem(name: Self.formEncoded(parameter), value: String(size)))
        }
        let names = Set(sent.map { $0.name.removingPercentEncoding ?? $0.name })
        let kept = (components.percentEncodedQueryItems ?? []).filter {
            !names.contains($0.name.removingPercentEncoding ?? $0.name)
        }
        components.percentEncodedQueryItems = kept + sent
        guard let result = components.url else { throw NetworkError(.invalidURL(NetworkError.redacting(url))) }
        return result
    }

    /// The members of the continuation object at `path` as a token: `name=value` pairs, each
    /// percent-encoded but for unreserved characters (so `&`, `+`, `?` and `é` travel as they are),
    /// joined by `&`; `nil` when there is no object there or it has no member.
    static func continuationToken(_ scanner: JSONScanner, at path: [String]) -> String? {
        guard let object = scanner.value(at: path), object.kind == .object else { return nil }
        let pairs = scanner.keys(of: object).compactMap { key -> String? in
            guard let text = scanner.scalarText(at: path + [key]) else { return nil }
            return formEncoded(key) + "=" + formEncoded(text)
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: "&")
    }

    /// Text percent-encoded but for RFC 3986's unreserved characters.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Reads a page out of a successful response to the request for `token`.
    func page(
        from response: NetworkResponse, token: PageToken?, requestURL: URL, validators: PageValidators
    ) throws -> Page<RawItem> {
        let scanner: JSONScanner
        let items: [RawItem]
        do {
            scanner = try JSONScanner(response.body)
        } catch {
            throw NetworkError(decoding: error, body: response.body, url: requestURL)
        }
        if let error = style.continuation.failure(in: scanner, requestURL: requestURL) { throw error }
        do {
            items = try readItems(scanner)
        } catch is JSONScanner.ScanError where endsWithoutItems(scanner, token: token) {
            items = []
        } catch var error as JSONScanner.ScanError {
            error.reason += itemsAdvice(scanner, for: error)
            throw NetworkError(decoding: error, body: response.body, url: requestURL)
        } catch {
            throw NetworkError(decoding: error, body: response.body, url: requestURL)
        }
        let totalKeys = PaginationStyle.components(style.totalKeyPath)
        let total = totalKeys.isEmpty ? nil : scanner.int(at: totalKeys)
        let announced = PaginationHeaders(header: response.header)
        let pageTotal = total ?? announced.total
        let next = try nextToken(
            scanner: scanner, response: response, token: token, requestURL: requestURL,
            items: items, total: pageTotal, announced: announced)
        var page = Page(items: items, token: token, nextToken: next, total: pageTotal, validators: validators)
        learntFeed.record(FeedParameters.learnt(fromLinkHeader: response.header("Link"), items: items))
        if let learnt = style.continuation.feedParameters(in: scanner, items: items) { learntFeed.record(learnt) }
        if token == nil, pagesByCursor, let next {
            learntCursors.learn(firstPageNext: next.rawValue, itemCount: items.count)
        }
        page.pageCount = style.continuation.announcedPageCount(
            scanner: scanner, response: response, announced: announced, in: self)
        return page
    }

    /// Whether a body without the items member is the list's end: a page after the first that holds
    /// no array of objects and announces the list's total where the first did (a page asked for past
    /// the total, answered `{"start": 130, "total_size": 123}`). It is read as an empty page, and the
    /// walk then compares what it stored with that total.
    private func endsWithoutItems(_ scanner: JSONScanner, token: PageToken?) -> Bool {
        let itemsPath = PaginationStyle.components(style.itemsKeyPath)
        let totalPath = PaginationStyle.components(style.totalKeyPath)
        guard token != nil, !itemsPath.isEmpty, !totalPath.isEmpty, scanner.root.kind == .object,
            scanner.value(at: itemsPath) == nil, scanner.int(at: totalPath) != nil
        else { return false }
        return scanner.arraysOfObjects(in: scanner.root, at: [], depth: 4).isEmpty
    }

    private func nextToken(
        scanner: JSONScanner, response: NetworkResponse, token: PageToken?, requestURL: URL,
        items: [RawItem], total: Int?, announced: PaginationHeaders
    ) throws -> PageToken? {
        guard !items.isEmpty else { return nil }
        let continuation = style.continuation
        let pagesSoFar = try continuation.pagesSoFar(token: token, requestURL: requestURL, in: self)
        if isLastPage(scanner, pagesSoFar: pagesSoFar) || announced.isLastPage { return nil }
        if let pagesSoFar, let count = announced.pageCount, pagesSoFar >= count { return nil }
        let page = ContinuedPage(
            scanner: scanner, response: response, token: token, requestURL: requestURL, items: items, total: total)
        return try continuation.nextToken(after: page, in: self)
    }

    /// Whether the body says the page is the last: the style's end signal, and the usual one of
    /// its way (`total_pages` of page-number lists, `has_more` of cursor lists).
    private func isLastPage(_ scanner: JSONScanner, pagesSoFar: Int?) -> Bool {
        let signals = [style.endSignal, style.continuation.usualEndSignal(style)].compactMap { $0 }
        for signal in signals {
            let path = PaginationStyle.components(signal.keyPath)
            switch signal {
            case .pageCount:
                if let pagesSoFar, let count = scanner.int(at: path), pagesSoFar >= count { return true }
            case .hasMore:
                if scanner.bool(at: path) == false { return true }
            case .isLast:
                if scanner.bool(at: path) == true { return true }
            }
        }
        return false
    }

    func advancingURL(_ text: String, from requestURL: URL, token: PageToken?) throws -> PageToken {
        guard let next = URL(string: text, relativeTo: requestURL)?.absoluteURL else {
            throw NetworkError(.invalidURL(text), url: requestURL)
        }
        let kept = keptToken(next)
        guard next.absoluteString != requestURL.absoluteString, kept != token else {
            throw NetworkError(.notAdvancing(token: NetworkError.redacting(next)), url: requestURL)
        }
        return kept
    }
}

extension HTTPPageSource {
    /// A source of typed items, each decoded from its JSON bytes with `JsonProvider`.
    ///
    /// A decoding failure throws ``NetworkError`` of kind ``NetworkError/Kind/decoding(path:reason:bodySnippet:)``.
    public func decoding<Item: Decodable & Sendable>(_ type: Item.Type) -> MappedPageSource<HTTPPageSource, Item> {
        mapItems { raw in
            do {
                return try JsonProvider.decode(Item.self, from: raw.json)
            } catch {
                throw NetworkError(decoding: error, body: raw.json, url: nil)
            }
        }
    }

    /// Fetches the first page of a list, detects its style, changes it with `adjust`, and reads the
    /// first page under the result (`nil` when the result asks for another page size than the
    /// response has: then the source fetches it again), with the detection before `adjust`.
    static func explainedDetecting(
        client: APIClient, url: URL, headers: [String: String], stub: PageStub?,
        adjusting adjust: @escaping @Sendable (PaginationStyle) -> PaginationStyle
    ) async throws -> (source: HTTPPageSource, firstPage: Page<RawItem>?, detection: PaginationStyle.Detection) {
        var prober = HTTPPageSource(client: client, url: url, style: .linkHeader(), headers: headers)
        prober.stub = stub
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await prober.sendingClient().send(request, home: Origin(url)) { response in
            var detection = PaginationStyle.explain(url: url, body: response.body, headers: response.headers)
            // A server that refused application/json is asked for the JSON type it answered with from now on.
            if JSONMediaTypes.refusesPlainJSON(url),
                let type = response.header("Content-Type")?.split(separator: ";").first?
                    .trimmingCharacters(in: .whitespaces), !type.isEmpty
            {
                detection.style.accept = type
                detection.reasons.append("application/json refused (406): asked for as \(type)")
            }
            let detected = detection.style
            let style = adjust(detected)
            var source = HTTPPageSource(client: client, url: url, style: style, headers: headers)
            source.stub = stub
            let asksAnotherSize =
                style.pageSize != nil
                && (style.pageSize != detected.pageSize || style.pageSizeParameter != detected.pageSizeParameter)
            guard !asksAnotherSize else {
                do {
                    _ = try JSONScanner(response.body)
                } catch {
                    throw NetworkError(decoding: error, body: response.body, url: url)
                }
                return (source, nil, detection)
            }
            let validators = PageValidators(
                etag: response.header("ETag"), lastModified: response.header("Last-Modified"))
            var page = try source.page(from: response, token: nil, requestURL: url, validators: validators)
            page.caching = PageCaching(header: response.header)
            page.caching.varyKey = PageCaching.varyKey(
                for: page.caching.vary, requestHeader: { request.value(forHTTPHeaderField: $0) })
            return (source, page, detection)
        }
    }
}
