import ArgumentParser
import SlippersKit
import SlippersNetworking

/// The pagination styles `sync --style` can force, instead of detecting one.
enum StyleOption: String, ExpressibleByArgument, CaseIterable {
    /// `?page=N&per_page=M`.
    case pageNumber
    /// `?offset=N&limit=M`.
    case offset
    /// `?cursor=C`, the next cursor in the body.
    case cursor
    /// The full URL of the next page in the body.
    case nextURL
    /// RFC 8288 `Link` headers.
    case linkHeader
    /// `?starting_after=ID`, the id of the previous page's last item, until `has_more` is false (Stripe).
    case afterLastItem
    /// `Range: items=N-M` request headers, the total in `Content-Range`.
    case range
    /// No pages: one request, whose response is the whole list.
    case singlePage

    /// The way of asking for pages this option stands for, with the usual parameter names.
    var kind: PaginationStyle.Kind {
        switch self {
        case .pageNumber: PaginationStyle.pageNumber().kind
        case .offset: PaginationStyle.offset().kind
        case .cursor: PaginationStyle.cursor().kind
        case .nextURL: PaginationStyle.nextURL().kind
        case .linkHeader: PaginationStyle.linkHeader().kind
        case .afterLastItem: PaginationStyle.afterLastItem().kind
        case .range: PaginationStyle.range().kind
        case .singlePage: PaginationStyle.singlePage().kind
        }
    }

    /// The name of a style's kind as the command line says it: the option's, or `graphql` and
    /// `post-body` for the styles `--graphql` and `--post-body` give.
    static func name(of kind: PaginationStyle.Kind) -> String {
        switch kind {
        case .graphQL: "graphql"
        case .bodyCursor: "post-body"
        default: StyleOption(kind).rawValue
        }
    }

    /// The option that names a style's kind; `pageNumber` for the posted styles, which no option names.
    init(_ kind: PaginationStyle.Kind) {
        switch kind {
        case .pageNumber: self = .pageNumber
        case .offset: self = .offset
        case .cursor: self = .cursor
        case .nextURL: self = .nextURL
        case .linkHeader: self = .linkHeader
        case .afterLastItem: self = .afterLastItem
        case .singlePage: self = .singlePage
        case .range: self = .range
        case .graphQL, .bodyCursor: self = .pageNumber
        }
    }

    /// The query parameter that sets the page size in this style, when it has one.
    var pageSizeParameter: String? {
        switch self {
        case .pageNumber: PaginationStyle.pageNumber().pageSizeParameter
        case .offset: PaginationStyle.offset().pageSizeParameter
        case .cursor: PaginationStyle.cursor().pageSizeParameter
        case .nextURL: nil
        case .linkHeader: PaginationStyle.linkHeader().pageSizeParameter
        case .afterLastItem: PaginationStyle.afterLastItem().pageSizeParameter
        case .range, .singlePage: nil
        }
    }

    /// The style this option forces: its way of asking for pages with the usual parameters,
    /// total and end signal.
    var template: PaginationStyle {
        PaginationStyle.named(rawValue) ?? PaginationStyle.pageNumber()
    }
}
