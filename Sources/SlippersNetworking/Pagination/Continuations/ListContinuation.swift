import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One way a list continues from a page to the next: how its pages are asked for, where a page
/// says what comes next, how the list ends, its name on the command line and in a queue, and
/// the candidates detection proposes for it.
///
/// Each way is a value of this protocol in a folder of its own under `Continuations/`; a case of
/// ``PaginationStyle/Kind`` names it, and ``PaginationStyle/Kind/continuation`` is the one place
/// that maps a case to its way. Code outside the folders asks the way, never the case. The
/// contributor's guide (`CONTRIBUTING.md`, "Adding a way a list continues") says how to add one.
///
/// Every requirement but the name, the template, the words, the request's URL, the next token and
/// the signs of the end has a default: a way that asks for one page after another by a token it
/// reads from the page before, and names no page ahead.
protocol ListContinuation: Sendable {
    /// The name `sync --style` and a queued request give the way: the case's name, such as `pageNumber`.
    static var name: String { get }
    /// The style `sync --style NAME` forces, with the usual parameters; `nil` for a way no such
    /// option forces (those asked for by POST, which their own options give).
    static var template: PaginationStyle? { get }
    /// The rules by which detection proposes the way from a first response, each at its rank.
    static var detectionRules: [DetectionRule] { get }

    /// The way of asking, in words: `page numbers (?page=N from 1)`.
    var description: String { get }
    /// The query parameters the way sets itself, left out of a list's key.
    var parameters: Set<String> { get }
    /// Whether pages are asked for by POST with a JSON body.
    var isPosted: Bool { get }
    /// Whether the way of asking for page 2 was inferred from the first response (a parameter's or a
    /// cursor's name) rather than given by the server, so that detection checks it with a request.
    var asksByInference: Bool { get }
    /// Whether a page 2 that repeats page 1 may mean a list of one page (a guessed page number or
    /// offset), rather than a way the server refused.
    var mayBeOnePage: Bool { get }
    /// Whether a page size is sent as a query parameter, so that one given with no parameter is refused.
    var sendsPageSize: Bool { get }
    /// Whether the next page is asked for with a cursor the server made.
    var pagesByCursor: Bool { get }
    /// Whether a walk of the list reads it again from its last page when its new items are not
    /// known to come first: a list numbered by page, whose new items shift every page.
    func readsPagesByNumber(_ style: PaginationStyle) -> Bool
    /// Whether every page of the list is named without the pages before it.
    func isAddressable(_ style: PaginationStyle) -> Bool
    /// The token of the page at `index` (from 0), when the way names pages ahead.
    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken?
    /// The number of pages of `total` items, when the way can count them.
    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int?
    /// The URL that fetches the page at a token; the first page's for `nil`.
    func requestURL(for token: PageToken?, in source: HTTPPageSource) throws -> URL
    /// What the way sets on the request for the page at `token` beside its URL: a header, a body.
    func prepare(_ request: inout URLRequest, for token: PageToken?, in source: HTTPPageSource) throws
    /// The number of pages read so far, the one at `token` included, when the way numbers them.
    func pagesSoFar(token: PageToken?, requestURL: URL, in source: HTTPPageSource) throws -> Int?
    /// The number of pages the page or its headers announce, when the way's pages are numbered.
    func announcedPageCount(
        scanner: JSONScanner, response: NetworkResponse, announced: PaginationHeaders, in source: HTTPPageSource
    ) -> Int?
    /// The next page's URL a first response names, for a way that follows next links: what
    /// detection learns ``PaginationStyle/advancing`` from. `nil` for other ways.
    func nextLink(in scanner: JSONScanner?, header: (String) -> String?) -> String?
    /// The member that says a page is the last when the style names none: `total_pages`, `has_more`.
    func usualEndSignal(_ style: PaginationStyle) -> PaginationStyle.EndSignal?
    /// The token of the page after `page`; `nil` at the end of the list.
    func nextToken(after page: ContinuedPage, in source: HTTPPageSource) throws -> PageToken?
    /// The signs of the list's end that are the way's own, in words, as `slippers detect` prints them.
    func endSigns(_ style: PaginationStyle) -> [String]
    /// How the list is known to end, in words: ``endSigns(_:)``, the style's end signal, an empty page.
    func endOfList(_ style: PaginationStyle) -> String
    /// The items of a page: by default, the array at the style's items key path.
    func readItems(_ scanner: JSONScanner, in style: PaginationStyle) throws -> [RawItem]
    /// Whether a page whose items are not where the style says is told where the body's arrays are.
    var advisesItemsPath: Bool { get }
    /// An error the body reports in place of a page (GraphQL's `errors`); `nil` for a page.
    func failure(in scanner: JSONScanner, requestURL: URL) -> NetworkError?
    /// What tells the list's request apart from another on the same URL, for a way that posts a
    /// body: never a header. `nil` for a way asked for by GET.
    func fingerprint(in source: HTTPPageSource) -> String?
    /// The `slippers sync` options that give the way (`--page-param page`), before the shape's
    /// own (page size, items, id, total); `nil` for a way no options give, whose options are its
    /// request's (`--graphql`, `--post-body` with a cursor).
    func options(_ style: PaginationStyle) -> [(name: String, value: String)]?
    /// What a page says of the parameters that fetch the items before or after one of its items
    /// (a next link's `?before=ID`, a body's `links.prev`), beyond the `Link` header every page is read for.
    func feedParameters(in scanner: JSONScanner, items: [RawItem]) -> FeedParameters?
    /// The parameter that fetches the items after (older than) a given item, when the way pages by it.
    var olderItemsParameter: String? { get }
    /// The name the list's items are filed under when the caller names none, when the way knows
    /// better than the URL (a GraphQL connection's last key); `nil` for the URL's.
    var itemTypeName: String? { get }
    /// Whether a way of asking for page 2 reads the next token from page 1 as this way does (a
    /// cursor at the same member sent back under another name), so that page 1's token serves it.
    func readsNextToken(like other: PaginationStyle.Kind) -> Bool
    /// A list asked for by POST in `source`'s style, completed from its first response where the
    /// style leaves something to find (a connection's path, a body's total), and, for
    /// ``HTTPPageSource/PageTwoCheck/every``, checked: what ``HTTPPageSource/detect(client:url:headers:stub:posted:pageTwo:adjusting:)``
    /// does with a posted style. By default the style as given, nothing asked for.
    func detect(posted source: HTTPPageSource, pageTwo: HTTPPageSource.PageTwoCheck) async throws
        -> HTTPPageSource.DetectedList
    /// The request for `token` in words, as a user would write it: `?page=2`.
    func askedText(_ token: PageToken) -> String
    /// The options that describe the list, when no way of asking for page 2 advanced.
    var probeAdvice: String? { get }
    /// The request for the page at `token` widened by the item before it, when the way can ask for it.
    func overlappingRequest(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest?
}

/// A page as the way that continues it reads it: the body, the request, the items.
struct ContinuedPage {
    /// The page's body.
    var scanner: JSONScanner
    /// The page's response, for its headers.
    var response: NetworkResponse
    /// The token the page was asked for with; `nil` for the first page.
    var token: PageToken?
    /// The URL the page was asked for at.
    var requestURL: URL
    /// The page's items.
    var items: [RawItem]
    /// The list's total, as the body or a header says it.
    var total: Int?
}

extension ListContinuation {
    static var detectionRules: [DetectionRule] { [] }
    var parameters: Set<String> { [] }
    var isPosted: Bool { false }
    var asksByInference: Bool { false }
    var mayBeOnePage: Bool { false }
    var sendsPageSize: Bool { true }
    var pagesByCursor: Bool { false }
    func readsPagesByNumber(_ style: PaginationStyle) -> Bool { false }
    func isAddressable(_ style: PaginationStyle) -> Bool { false }
    func token(forPageAt index: Int, in source: HTTPPageSource) -> PageToken? { nil }
    func pageCount(forTotal total: Int, pageItemCount: Int, in source: HTTPPageSource) -> Int? { nil }
    func prepare(_ request: inout URLRequest, for token: PageToken?, in source: HTTPPageSource) throws {}
    func pagesSoFar(token: PageToken?, requestURL: URL, in source: HTTPPageSource) throws -> Int? { nil }
    func usualEndSignal(_ style: PaginationStyle) -> PaginationStyle.EndSignal? { nil }
    func nextLink(in scanner: JSONScanner?, header: (String) -> String?) -> String? { nil }
    func announcedPageCount(
        scanner: JSONScanner, response: NetworkResponse, announced: PaginationHeaders, in source: HTTPPageSource
    ) -> Int? { nil }
    func askedText(_ token: PageToken) -> String { "page 2 (\(description))" }
    var advisesItemsPath: Bool { true }
    func feedParameters(in scanner: JSONScanner, items: [RawItem]) -> FeedParameters? { nil }
    var olderItemsParameter: String? { nil }
    var itemTypeName: String? { nil }

    func detect(posted source: HTTPPageSource, pageTwo: HTTPPageSource.PageTwoCheck) async throws
        -> HTTPPageSource.DetectedList
    {
        source.given(reason: "given by the caller")
    }

    func readsNextToken(like other: PaginationStyle.Kind) -> Bool { false }
    func options(_ style: PaginationStyle) -> [(name: String, value: String)]? { [("--style", Self.name)] }
    func failure(in scanner: JSONScanner, requestURL: URL) -> NetworkError? { nil }
    func fingerprint(in source: HTTPPageSource) -> String? { nil }

    func readItems(_ scanner: JSONScanner, in style: PaginationStyle) throws -> [RawItem] {
        try scanner.rawItems(at: PaginationStyle.components(style.itemsKeyPath), idField: style.idField)
    }

    func endOfList(_ style: PaginationStyle) -> String {
        var signs = endSigns(style)
        switch style.endSignal {
        case .pageCount(let keyPath)?: signs.append("the page count at \(keyPath) reached")
        case .hasMore(let keyPath)?: signs.append("\(keyPath) false")
        case .isLast(let keyPath)?: signs.append("\(keyPath) true")
        case nil: break
        }
        signs.append("an empty page")
        return signs.joined(separator: ", ")
    }
    var probeAdvice: String? { nil }
    func overlappingRequest(for token: PageToken?, in source: HTTPPageSource) -> HTTPPageSource.OverlappingRequest? {
        nil
    }

    /// The number of pages of `total` items on pages of `size`, rounded up.
    static func pages(of total: Int, size: Int?) -> Int? {
        guard let size, size > 0, total >= 0 else { return nil }
        return max(1, (total + size - 1) / size)
    }
}

extension PaginationStyle {
    /// The way the style's list continues.
    var continuation: any ListContinuation { kind.continuation }

    /// The names `sync --style` takes, each a way's case name: `pageNumber`, `offset`, `cursor`,
    /// `nextURL`, `linkHeader`, `afterLastItem`, `range` and `singlePage`.
    public static var styleNames: [String] {
        PaginationStyle.Kind.continuations.compactMap { way in way.template == nil ? nil : way.name }
    }

    /// The style `sync --style NAME` forces: its way of asking for pages with the usual
    /// parameters, total and end signal; `nil` for a name none of ``styleNames`` is.
    public static func named(_ name: String) -> PaginationStyle? {
        PaginationStyle.Kind.continuations.first { $0.name == name }?.template
    }

    /// The `slippers sync` options that give this style instead of detecting it: the way's, then
    /// the page size's parameter and size, the items path, the id member and the total path;
    /// empty for a style no options give (GraphQL, a cursor in a POST body). What `slippers detect`
    /// prints, so that a script can pin what was found.
    public var commandLineOptions: [(name: String, value: String)] {
        guard var options = continuation.options(self) else { return [] }
        if !continuation.isPosted, let pageSizeParameter { options.append(("--page-size-param", pageSizeParameter)) }
        if let pageSize { options.append(("--page-size", String(pageSize))) }
        options.append(("--items-path", itemsKeyPath))
        if idField != "id" { options.append(("--id-field", idField)) }
        if let totalKeyPath { options.append(("--total-path", totalKeyPath)) }
        return options
    }

    /// Whether the style's list is read one page at a time by page number: a walk that does not
    /// know its new items come first reads it again from its last page, as new items shift every
    /// page (page numbers, or a next URL that advances a page number by one).
    public var readsPagesByNumber: Bool { continuation.readsPagesByNumber(self) }

    /// Whether the way of asking for page 2 was inferred from the first response (a page or offset
    /// parameter's name, a cursor's), rather than given by the server (a next link).
    public var asksByInference: Bool { continuation.asksByInference }

    /// Whether a page size is sent as a query parameter (``pageSizeParameter``), so that a size
    /// given with no such parameter is refused: not for a list of one page, a range, or a body.
    public var sendsPageSize: Bool { continuation.sendsPageSize }

    /// The name of the style's way as the command line says it: a ``styleNames`` entry, or
    /// `graphql` and `post-body` for the ways `--graphql` and `--post-body` give.
    public var styleName: String { type(of: continuation).name }
}
