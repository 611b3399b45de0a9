import Foundation

extension PaginationStyle {
    /// The ways of asking for pages.
    public enum Kind: Codable, Sendable, Hashable {
        /// `?page=N`, numbered from `firstPage` (0 or 1). The token is the page number.
        case pageNumber(parameter: String, firstPage: Int)
        /// `?offset=N&limit=M`. The token is the offset.
        case offset(parameter: String)
        /// `?cursor=C`, with the next cursor in the body at `keyPath`. The token is the cursor.
        case cursor(parameter: String, keyPath: String)
        /// The full URL of the next page in the body at `keyPath` (`next`, `next_url`…): a string, a
        /// link object's `href` (`_links.next`), or the `href` of the link whose `rel` is `next` in
        /// an array of link objects (`links`). A relative URL is resolved against the request's. The token is the URL.
        case nextURL(keyPath: String)
        /// RFC 8288 `Link: <url>; rel="next"` headers, or a header that holds the next page's URL
        /// alone (`Next-Page`, `X-Next-Page`, `X-Next`). The token is the URL.
        case linkHeader
        /// `?starting_after=ID`, with the id of the previous page's last item (Stripe). The token is that id.
        ///
        /// The list ends at an empty page or when the ``EndSignal`` (`has_more: false`) says so.
        case afterLastItem(parameter: String)
        /// One response holds the whole list: the URL is asked for as it is, and there is no next page.
        ///
        /// For APIs that do not page, such as a bare JSON array of every item.
        case singlePage
        /// A GraphQL connection, asked for by POST with `first` and `after` (the Relay
        /// cursor connection spec). The token is the previous page's end cursor.
        case graphQL(GraphQLConnection)
        /// A cursor in a JSON body sent by POST. The token is the cursor's JSON text.
        case bodyCursor(BodyCursor)
        /// `Range: items=0-49` request headers, each page's range and the total read from its
        /// `Content-Range: items 0-49/1234` (RFC 9110 ranges in a unit of the server's, as
        /// react-admin's simple REST servers page). The token is the offset.
        case range(unit: String)
        /// `?cursor=C`, with the next cursor in a response header (`X-Next-Cursor: C`, absent on the
        /// last page). The token is the cursor.
        case headerCursor(header: String, parameter: String)
    }
}

extension PaginationStyle.Kind {
    /// The way each case names: the one place a case is mapped to the code of its way.
    var continuation: any ListContinuation {
        switch self {
        case .pageNumber(let parameter, let firstPage): PageNumbers(parameter: parameter, firstPage: firstPage)
        case .offset(let parameter): Offsets(parameter: parameter)
        case .cursor(let parameter, let keyPath): Cursors(parameter: parameter, keyPath: keyPath)
        case .nextURL(let keyPath): NextURLs(keyPath: keyPath)
        case .linkHeader: LinkHeaders()
        case .afterLastItem(let parameter): AfterLastItem(parameter: parameter)
        case .singlePage: SinglePage()
        case .graphQL(let connection): GraphQLConnections(connection: connection)
        case .bodyCursor(let cursor): PostedBodies(cursor: cursor)
        case .range(let unit): Ranges(unit: unit)
        case .headerCursor(let header, let parameter): HeaderCursors(header: header, parameter: parameter)
        }
    }

    /// Every way, in the order `sync --style` lists them.
    static let continuations: [any ListContinuation.Type] = [
        PageNumbers.self, Offsets.self, Cursors.self, NextURLs.self, LinkHeaders.self, AfterLastItem.self,
        Ranges.self, SinglePage.self, HeaderCursors.self, GraphQLConnections.self, PostedBodies.self,
    ]
}

extension PaginationStyle.Kind: CustomStringConvertible {
    /// The way of asking, in words: `page numbers (?page=N from 1)`, `cursor (?cursor= from next_cursor)`.
    public var description: String { continuation.description }
}
