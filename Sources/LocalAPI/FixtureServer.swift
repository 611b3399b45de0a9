import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// The local paginated API on 127.0.0.1, for the demo, the benchmark and the tests.
///
/// The server lists ``FixtureItem``s (ids 1…N, generated on demand, so N may
/// be a million) through one route per pagination style:
///
/// | route | asks with | answers |
/// | --- | --- | --- |
/// | `/page` | `page` (from ``Configuration/firstPage``), `per_page` | items (body or under the key), `page`, `per_page`, `total`, `total_pages` |
/// | `/offset` | `offset`, `limit` | items, `offset`, `limit`, `total` |
/// | `/cursor` | `cursor` (opaque), `limit` | items, `next_cursor` (`null` at the end), `has_more` |
/// | `/next` | `offset`, `limit` in the URL it hands out | items, `count`, `next` and `previous` full URLs |
/// | `/link` | `page`, `per_page` | a bare array, and `Link: <…>; rel="next", <…>; rel="last"` |
/// | `/stripe` | `starting_after` (the last id seen), `limit` | `object`, `url`, `has_more`, items under `data` |
/// | `/slack` | `cursor` (opaque), `limit` | `ok`, items under `members`, `response_metadata.next_cursor` (`""` at the end) |
/// | `/jsonapi` | `page[number]`, `page[size]` in the URL it hands out | items under `data`, `links.next` (`null` at the end), `meta.total` |
/// | `/odata` | `$skip`, `$top` in the URL it hands out | `@odata.context`, items under `value`, `@odata.nextLink` (absent at the end), `@odata.count` with `$count=true` |
/// | `/spring` | `page` (from 0), `size` | Spring Data's `Page`: items under `content`, `totalPages`, `totalElements`, `last`, `number`, `size`… |
/// | `/drf` | `page`, `page_size` | Django REST framework: `count`, `next`, `previous`, `results` |
/// | `/ogc` | `offset`, `limit` in the URL it hands out | OGC API Features: `features`, `numberMatched`, `numberReturned`, a `links` array with `rel: "next"` |
/// | `/next-page-header` | `_token` (opaque), `limit` | a bare array, newest first; the next page's URL in a `Next-Page` header |
/// | `/header-totals` | `page`, `per_page` | a bare array; `X-WP-Total`, `X-WP-TotalPages`, `Link` rel next/prev; `400` past the last page |
/// | `/meta-pages` | `page`, `per_page` | `items`, and `meta` with `current_page`, `next_page`, `prev_page`, `total_pages`, `total_count` (`?current_page=` is ignored) |
/// | `/opaque-pages` | `cursor` (opaque), `limit` | `items`, `total`, opaque strings at `current_page`, `current_page_backwards`, `previous_page`, `next_page` |
/// | `/continuation` | `xlimit`, and every member of the `continue` object | `batchcomplete`, items (`pageid`, `ns`, `title`) under `query.pages`, `continue` (absent at the end) |
/// | `/field-filters` | `__page`, `__page_size` | items under `rows`; `400 NAME isn't a valid field name` for any other parameter |
/// | `/graphql` (POST) | `{query, variables: {first, after}}` | a Relay connection at `data.posts` (or two levels down): `edges` or `nodes`, `pageInfo`, `totalCount`; `errors` on request |
/// | `/ROUTE/ID` and `/ROUTE/ID/` | `GET`, `PATCH` or `PUT` (`{"title": …}`), `DELETE`; `If-Match`, `Idempotency-Key` | the item with its `ETag`; `412` when `If-Match` differs; a key seen again replays its answer |
/// | `/search` (POST) | `start_cursor`, `page_size` in the body (or `search_after`, `size`) | Notion's `results`, `next_cursor`, `has_more` (or Elasticsearch's `hits.hits`) |
///
/// Every answer has an `ETag` of its content and honours `If-None-Match`
/// with `304` — or, as servers differ, a `Last-Modified` date honouring
/// `If-Modified-Since`, both, or no validator at all (``Configuration/validators``,
/// ``setValidators(_:)``); ``setResponseHeaders(_:)`` adds `Cache-Control`,
/// `Expires` or `Vary`. A test can change the list while the server runs
/// (``insertAtTop(count:)``, ``update(id:title:)``, ``remove(id:)``, or on every request with
/// ``setChurn(_:)``), inject faults
/// (``inject(_:count:)``), hold answers until it releases them
/// (``hold()``, ``release()``), script paths of its own (``script(_:_:)``),
/// make requests fail at random (``injectRandomly(_:seed:)``), and look at
/// what the server received (``requests``, ``waitForRequests(_:)``).
///
/// For example:
///
/// ```swift
/// let server = FixtureServer(configuration: .init(itemCount: 95, pageSize: 10))
/// try await server.start()
/// let url = server.url(.page)           // http://127.0.0.1:PORT/page
/// server.inject(.status(500), count: 2)
/// await server.stop()                   // connections are refused until start() again
/// ```
///
/// A stopped server refuses connections; starting it again takes the same port, so "the server
/// went away and came back" is two calls. It serves HTTP/1.1 with keep-alive over SwiftNIO.
public final class FixtureServer: Sendable {
    /// How the fixture API answers.
    public struct Configuration: Sendable {
        /// The number of items the list starts with.
        public var itemCount: Int
        /// The page size when the request gives none.
        public var pageSize: Int
        /// The number of the first page of `/page` and `/link`: 0 or 1.
        public var firstPage: Int
        /// Where the items go: a key path such as `results` or `data.items`, or `nil` for a bare array
        /// body. `/page` honours `nil`; the routes that need room for metadata use `results` then.
        /// The routes of well-known APIs (`/stripe`, `/slack`, `/jsonapi`, `/odata`, `/spring`) keep their own shapes.
        public var itemsKeyPath: String?
        /// A token that requests must carry as `Authorization: Bearer <token>`, or `nil` for none.
        public var requiredBearerToken: String?
        /// The validators answers carry, and honour in conditional requests.
        public var validators: Validators = .etag
        /// Headers added to every answer of the list (`200` and `304`), such as
        /// `Cache-Control`, `Expires` or `Vary`.
        public var responseHeaders: [String: String] = [:]
        /// Whether accepted connections have `TCP_NODELAY` set; `true` unless set.
        ///
        /// The server writes a response's head and body in two writes. With this
        /// `false`, Nagle's algorithm holds the body until the client acknowledges
        /// the head, as many real servers do (Python's `http.server` among them):
        /// a client that delays its acknowledgements waits up to 40 ms a response.
        public var noDelay = true
        /// A wait before every answer, as a distant server adds; `nil` for none.
        public var latency: Duration?
        /// How item writes are treated, as stock frameworks differ.
        public var writes = Writes()
        /// The most items an offset page (``Route/offset``, ``Route/next``) holds whatever `limit`
        /// asks for, as Django REST framework's `max_limit` caps it; `nil` for no cap.
        public var maxLimit: Int?
        /// The status a list answers, instead of a page, when its `limit` asks for more than
        /// ``maxLimit``, as servers that validate the limit do: `400` with "limit cannot be higher
        /// than N", or `422` with a validation error as FastAPI's `Query(le=N)` sends; `nil` to
        /// serve ``maxLimit`` items instead.
        public var refusedLimitStatus: Int?
        /// Whether list bodies are pretty-printed: each item over several indented lines, as
        /// servers that format their JSON for people send them; `false` unless set.
        public var prettyPrinted = false

        /// How the fixture API treats item writes: by default as a careful server does (it honours
        /// `Idempotency-Key` and `If-Match` and sends `ETag`s); each member turns one habit of stock
        /// frameworks on.
        public struct Writes: Sendable {
            /// Whether a write repeated with its `Idempotency-Key` is answered as before and not applied
            /// again; `false` as Django REST framework, Django Ninja and flask-smorest do.
            public var honoursIdempotencyKey = true
            /// Whether a write whose `If-Match` is not the item's `ETag` is refused with `412`; `false`
            /// as Django REST framework and Django Ninja do.
            public var honoursIfMatch = true
            /// Whether item answers carry an `ETag` (and a `GET` with `If-None-Match` is answered `304`);
            /// `false` as Django REST framework does without middleware.
            public var sendsETags = true
            /// Whether a write without `If-Match` is refused with `428`, as flask-smorest's `@blp.etag` does.
            public var requiresIfMatch = false
            /// Whether items are routed at `/ROUTE/ID/` as well as `/ROUTE/ID`; `false` as Flask routes them.
            public var acceptsTrailingSlash = true
            /// A wait after a write is applied and before it is answered: the moment a client killed
            /// then never learns of it.
            public var answerDelay: Duration?
            /// The member of a `POST`'s body that names the new item's author, required (an id
            /// from 1 to 50), when the server writes a reference it never lists: items are listed
            /// with their author nested (`"author": {"id", "name"}`), as serializers with a
            /// write-only `author_id` beside a read-only `author` do. `nil` (the author is made up)
            /// unless set.
            public var authorReference: String?
            /// The member of a `POST`'s body the new item's title is taken from: `"title"` unless
            /// set; another name is a write-only member the list never shows.
            public var titleMember = "title"

            /// Writes as a careful server treats them.
            public init() {}
        }

        /// Creates a configuration.
        public init(
            itemCount: Int = 100,
            pageSize: Int = 20,
            firstPage: Int = 1,
            itemsKeyPath: String? = "results",
            requiredBearerToken: String? = nil
        ) {
            self.itemCount = itemCount
            self.pageSize = max(1, pageSize)
            self.firstPage = firstPage
            self.itemsKeyPath = itemsKeyPath
            self.requiredBearerToken = requiredBearerToken
        }
    }

    /// The validators the fixture API sends, as servers differ.
    public enum Validators: String, Sendable, CaseIterable {
        /// An `ETag` of the content, honouring `If-None-Match` (Django REST Framework with ConditionalGetMiddleware).
        case etag
        /// A `Last-Modified` date of the content, honouring `If-Modified-Since`.
        case lastModified
        /// Both, each honoured.
        case both
        /// Neither (Datasette): every answer is a `200`.
        case none
    }

    /// The routes of the fixture API, one per pagination style.
    public enum Route: String, Sendable, CaseIterable {
        /// Page numbers.
        case page = "/page"
        /// Offset and limit, with a total.
        case offset = "/offset"
        /// A cursor in the body.
        case cursor = "/cursor"
        /// A full next URL in the body.
        case next = "/next"
        /// `Link` headers.
        case link = "/link"
        /// `has_more` and the last item's id, as Stripe pages.
        case stripe = "/stripe"
        /// A cursor under `response_metadata`, as Slack pages.
        case slack = "/slack"
        /// JSON:API's `links.next`.
        case jsonapi = "/jsonapi"
        /// OData's `@odata.nextLink`.
        case odata = "/odata"
        /// Spring Data's `Page`, numbered from 0.
        case spring = "/spring"
        /// Django REST framework's `PageNumberPagination`: `?page=N`, answering `count`, `next` (the
        /// list's URL with `page` advanced, `null` at the end), `previous` and `results`.
        case drf = "/drf"
        /// Django Ninja's `LimitOffsetPagination`: `?limit=M&offset=N`, answering `items` and `count`
        /// and nothing that says how to ask for the next page (`?page=` is ignored).
        case ninjaOffset = "/ninja-offset"
        /// Django Ninja's `PageNumberPagination`: `?page=N`, answering `items` and `count`, as the
        /// offset one does (`?offset=` is ignored).
        case ninjaPage = "/ninja-page"
        /// flask-smorest's `@blp.paginate()`: `?page=N&page_size=M` over a bare array, the total and
        /// pages in an `X-Pagination` header (`next_page` on every page but the last).
        case smorest = "/smorest"
        /// Litestar's `CursorPagination`: `?cursor=C&results_per_page=M`, answering `items`,
        /// `results_per_page` and the next `cursor` as a number (`null` on the last page).
        case litestarCursor = "/litestar-cursor"
        /// Litestar's `ClassicPagination`: `?current_page=N&page_size=M`, answering `items`,
        /// `page_size`, `current_page` and `total_pages`.
        case litestarClassic = "/litestar-classic"
        /// PostgREST: `?offset=N&limit=M` over a bare array, the total in `Content-Range: 0-49/1234`
        /// (`?page=` is ignored).
        case contentRange = "/content-range"
        /// OGC API Features: `?offset=N&limit=M`, answering a `FeatureCollection` with the items under
        /// `features`, `numberMatched`, `numberReturned` and a `links` array of `{rel, href, type}`
        /// objects whose `rel: "next"` names the next page (`?page=` is ignored).
        case ogc = "/ogc"
        /// A bare array, newest first, whose next page is only in a `Next-Page` header: the full URL
        /// carrying an opaque `_token` (`?page=` is ignored).
        case nextPageHeader = "/next-page-header"
        /// WordPress's REST API: `?page=N&per_page=M` over a bare array, `X-WP-Total` and
        /// `X-WP-TotalPages` headers, `Link` with `rel="next"` and `rel="prev"`; `400` "invalid page
        /// number" for a page past the last.
        case headerTotals = "/header-totals"
        /// A page from 0 and its size inside a rison object: `?q=(page:N,page_size:M)`, answering
        /// `count`, `ids`, `list_columns` and the items under `result` (`?page=` is ignored).
        case rison = "/rison"
        /// A page from 1 and its size inside a JSON object: `?q={"page":N,"per_page":M}`, answering
        /// `items` and `total` (`?page=` is ignored).
        case jsonQuery = "/json-query"
        /// A page-number list whose body names the page `current_page` and is asked for by `?page=N&per_page=M`:
        /// `items` and `meta` with `current_page`, `next_page`, `prev_page`, `total_pages` and `total_count`
        /// (`?current_page=` is ignored).
        case metaPages = "/meta-pages"
        /// A cursor list whose cursors are opaque strings at members named `*_page` (`current_page`,
        /// `current_page_backwards`, `previous_page`, `next_page`), sent back as `?cursor=`; `items`
        /// and `total` beside them (`?page=` and `?after=` are ignored).
        case opaquePages = "/opaque-pages"
        /// A continuation protocol: the items (`pageid`, `ns`, `title`) under `query.pages`, and a
        /// `continue` object whose every member (`xcontinue`, with `é`, `&`, `+` and `?` in it, and
        /// `continue`) must come back as a query parameter; absent on the last page.
        case continuation = "/continuation"
        /// Items under `rows` and nothing else, paged by `?__page=N&__page_size=M`; any other
        /// parameter is a field to filter on, and one that names none is refused with
        /// `400 page isn't a valid field name`.
        case fieldFilters = "/field-filters"
        /// A continuation at `end` taken back as `?from=`: the items under `chunk`, the page's own
        /// token at `start`; `end` is absent on the last page.
        case renamedContinuation = "/renamed-continuation"
        /// Items keyed by `name` (`@user<id>:example.org`) with no id under `users`, a `total`, and the
        /// next offset at `next_token`, taken back as `?from=`.
        case namedItems = "/named-items"
        /// Items under `data.collection` beside `data.@links`, arrays of `{rel, uri}` objects;
        /// `?@page_index=N&@page_size=M` from 0.
        case linkArrays = "/link-arrays"
        /// `?page=N&count=M`, answering `start`, `total_size` and `entries`; a page past the last has
        /// no `entries` member.
        case missingArrayEnd = "/missing-array-end"
        /// A bare array, `?cursor=C&limit=M`, whose next cursor is only in an `X-Next-Cursor` response
        /// header (`c<position>`), absent on the last page (`?page=` is ignored).
        case headerCursor = "/header-cursor"
    }

    /// The routes of the fixture API asked for by POST with a JSON body: see `FixturePostPage`.
    public enum PostRoute: String, Sendable, CaseIterable {
        /// A GraphQL Relay connection: `{query, variables}` in, `data` with edges or nodes and `pageInfo` out.
        case graphql = "/graphql"
        /// A cursor in the body: Notion's `start_cursor`, or Elasticsearch's `search_after` when `size` is sent.
        case search = "/search"
    }

    struct State {
        var configuration: Configuration
        var catalog: FixtureCatalog
        var port: UInt16 = 0
        var listener: LoopbackListener?
        /// The faults queued, as runs of one fault for a number of requests, oldest first.
        var faults: [(fault: Fault, count: Int)] = []
        var requests: [ReceivedRequest] = []
        var isHeld = false
        var holdFromRequest: Int?
        var heldResponses: [CheckedContinuation<Void, Never>] = []
        var requestWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var scripts: [String: @Sendable (ReceivedRequest) -> ScriptedResponse] = [:]
        var randomFaults: [(Fault, Double)] = []
        var random = SplitMix64(seed: 0)
        /// How the list changes on every request for one of its pages, if it does.
        var churn: Churn?
        var churnRandom = SplitMix64(seed: 0)
        /// The requests for a list's pages since the churn was set.
        var churnRequests = 0
        /// When each content (by its ETag) was first served: its `Last-Modified`.
        var firstServed: [String: Int] = [:]
        /// The answers of the writes applied, by `Idempotency-Key`: a key seen again gets the same answer.
        var writeAnswers: [String: ItemWriteAnswer] = [:]
        /// The number of writes applied (a write replayed for its key counts once).
        var appliedWrites = 0
        /// The port held for the server's life, or while it is stopped where a listener cannot share
        /// it: see `PortReservation`.
        var reservation: PortReservation?
    }

    let state: Mutex<State>

    /// Creates a server; it listens once ``start()`` returns.
    public init(configuration: Configuration = Configuration()) {
        state = Mutex(State(configuration: configuration, catalog: FixtureCatalog(count: configuration.itemCount)))
    }

    // MARK: Lifecycle

    /// Starts listening on 127.0.0.1 and returns once connections are accepted.
    ///
    /// The first start takes a free port; a start after ``stop()`` takes the
    /// same port again, so clients find the server where it was.
    ///
    /// - throws: The socket error when the port cannot be bound.
    public func start() async throws {
        let port = try state.withLock { state throws(POSIXError) -> UInt16? in
            guard state.listener == nil else { return nil }
            // The first start takes a free port through its reservation; later ones take it again.
            if state.reservation == nil { state.reservation = PortReservation(port: state.port) }
            guard let reservation = state.reservation else { throw POSIXError(.EADDRINUSE) }
            state.port = reservation.port
            if !PortReservation.isKeptWhileListening { state.reservation = nil }
            return state.port
        }
        guard let port else { return }
        let handler = FixtureHandler(server: self)
        let listener = try await LoopbackListener.bind(
            of: HTTPServerRequestPart.self, port: Int(port), noDelay: state.withLock { $0.configuration.noDelay }
        ) { pipeline in
            try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
        } serve: { inbound, channel in
            await handler.serve(inbound, on: channel)
        }.get()
        state.withLock { $0.listener = listener }
    }

    /// Stops listening and closes every connection; held answers are released.
    ///
    /// After it returns, connections to the port are refused until ``start()``; the port stays
    /// held, so no other server of the machine is given it meanwhile.
    public func stop() async {
        let (listener, held) = state.withLock { state in
            defer {
                state.listener = nil
                state.heldResponses = []
                state.isHeld = false
                state.holdFromRequest = nil
            }
            return (state.listener, state.heldResponses)
        }
        for continuation in held { continuation.resume() }
        await listener?.stop()
        // Where the reservation could not be kept while listening, it is taken again now: connections
        // are refused until the next start, and no other server takes the port meanwhile.
        state.withLock { state in
            if state.listener == nil, state.port != 0, state.reservation == nil {
                state.reservation = PortReservation(port: state.port)
            }
        }
    }

    /// Whether the server is listening.
    public var isRunning: Bool { state.withLock { $0.listener != nil } }

    /// Whether each connection accepted since the last start had `TCP_NODELAY` set, in order.
    var noDelayOfAcceptedConnections: [Bool?] { state.withLock { $0.listener?.noDelayOfAcceptedConnections ?? [] } }

    /// The port the server listens on (0 before the first start).
    public var port: Int { Int(state.withLock { $0.port }) }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The URL of a route, with query items.
    public func url(_ route: Route, query: [String: String] = [:]) -> URL {
        url(path: route.rawValue, query: query)
    }

    /// The URL of a POST route.
    public func url(_ route: PostRoute) -> URL {
        url(path: route.rawValue)
    }

    /// The URL of any path on the server, with query items sorted by name.
    public func url(path: String, query: [String: String] = [:]) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        components.path = path
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        return components.url ?? baseURL
    }

    // MARK: The list

    /// The configuration the server answers with.
    public var configuration: Configuration { state.withLock { $0.configuration } }

    /// The number of items in the list now.
    public var itemCount: Int { state.withLock { $0.catalog.count } }

    /// The ids of the whole list, top first; for tests of small lists.
    public var allIDs: [Int] {
        state.withLock { state in (0..<state.catalog.count).map { state.catalog.id(at: $0) } }
    }

    /// Puts `count` new items at the top of the list, newest first, with ids above all the others.
    ///
    /// Every item already listed moves down by `count` positions, as when a
    /// feed gets new posts between two runs.
    public func insertAtTop(count: Int) {
        state.withLock { $0.catalog.insertAtTop(count: count) }
    }

    /// Changes the title of an item; returns `false` when there is no such item.
    @discardableResult
    public func update(id: Int, title: String) -> Bool {
        state.withLock { $0.catalog.update(id: id, title: title) }
    }

    /// Removes an item from the list; returns `false` when there is no such item.
    ///
    /// The items below it move up by one position.
    @discardableResult
    public func remove(id: Int) -> Bool {
        state.withLock { $0.catalog.remove(id: id) }
    }

    /// Treats item writes this way from now on.
    public func setWrites(_ writes: Configuration.Writes) {
        state.withLock { $0.configuration.writes = writes }
    }

    /// Sends these validators from now on.
    public func setValidators(_ validators: Validators) {
        state.withLock { $0.configuration.validators = validators }
    }

    /// Adds these headers to every answer from now on (replacing those set before).
    public func setResponseHeaders(_ headers: [String: String]) {
        state.withLock { $0.configuration.responseHeaders = headers }
    }

    /// The `Last-Modified` of a content, by its ETag: a minute later for each new content served.
    func lastModified(ofContent etag: String) -> String {
        let order = state.withLock { state in
            if let order = state.firstServed[etag] { return order }
            let order = state.firstServed.count
            state.firstServed[etag] = order
            return order
        }
        return HTTPDateText.string(from: Date(timeIntervalSince1970: 1_767_225_600 + Double(order) * 60))
    }

    /// Requires `Authorization: Bearer <token>` from now on, or nothing when `nil`.
    public func setRequiredBearerToken(_ token: String?) {
        state.withLock { $0.configuration.requiredBearerToken = token }
    }

    // MARK: Faults and the gate

    /// Makes the next `count` requests misbehave with `fault`, after the faults already queued.
    public func inject(_ fault: Fault, count: Int = 1) {
        // A run, not `count` copies: a test may queue a delay for a million requests.
        guard count > 0 else { return }
        state.withLock { $0.faults.append((fault, count)) }
    }

    /// Forgets the faults not yet used.
    public func clearFaults() {
        state.withLock { $0.faults = [] }
    }

    /// Holds every answer from now on, until ``release()``; requests are still received and recorded.
    public func hold() {
        state.withLock { $0.isHeld = true }
    }

    /// Holds every answer from the `count`-th request on (counted as ``requestCount`` is), until
    /// ``release()``; the requests before it are answered.
    public func hold(fromRequest count: Int) {
        state.withLock { state in
            if state.requests.count >= count { state.isHeld = true } else { state.holdFromRequest = count }
        }
    }

    /// Sends the held answers and stops holding.
    public func release() {
        let held = state.withLock { state in
            defer {
                state.isHeld = false
                state.holdFromRequest = nil
                state.heldResponses = []
            }
            return state.heldResponses
        }
        for continuation in held { continuation.resume() }
    }

    // MARK: Observability

    /// The requests received since the start or the last ``resetRequests()``, in order.
    public var requests: [ReceivedRequest] { state.withLock { $0.requests } }

    /// The number of requests received since the start or the last ``resetRequests()``.
    public var requestCount: Int { state.withLock { $0.requests.count } }

    /// Forgets the requests received so far.
    public func resetRequests() {
        state.withLock { $0.requests = [] }
    }

    /// Returns once the server has received at least `count` requests (counted as ``requestCount`` is).
    public func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let isDue = state.withLock { state in
                guard state.requests.count < count else { return true }
                state.requestWaiters.append((count, continuation))
                return false
            }
            if isDue { continuation.resume() }
        }
    }

    /// The scripted answer for a path, if a test gave one.
    func scripted(_ path: String) -> (@Sendable (ReceivedRequest) -> ScriptedResponse)? {
        state.withLock { $0.scripts[path] }
    }

    /// Records a request and wakes the waiters it satisfies; returns the fault to apply, if any.
    func receive(_ request: ReceivedRequest) -> Fault? {
        let (fault, due) = state.withLock { state in
            state.requests.append(request)
            let count = state.requests.count
            if let threshold = state.holdFromRequest, count >= threshold {
                state.isHeld = true
                state.holdFromRequest = nil
            }
            let due = state.requestWaiters.filter { $0.count <= count }.map(\.continuation)
            state.requestWaiters.removeAll { $0.count <= count }
            var fault = state.faults.first?.fault
            if let run = state.faults.first {
                if run.count > 1 {
                    state.faults[state.faults.startIndex].count -= 1
                } else {
                    state.faults.removeFirst()
                }
            }
            if fault == nil, !state.randomFaults.isEmpty {
                var draw = Double.random(in: 0..<1, using: &state.random)
                for (candidate, probability) in state.randomFaults {
                    if draw < probability {
                        fault = candidate
                        break
                    }
                    draw -= probability
                }
            }
            return (fault, due)
        }
        for continuation in due { continuation.resume() }
        return fault
    }

    /// Waits while answers are held.
    func passGate() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                guard state.isHeld else { return true }
                state.heldResponses.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }
}
