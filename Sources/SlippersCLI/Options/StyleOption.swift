import ArgumentParser
import SlippersKit
import SlippersNetworking

/// The pagination styles `sync --style` can force, instead of detecting one.
enum StyleOption: String, ExpressibleByArgument, CaseIterable {
    /// `?page=N&per_page=M`.
    case page
    /// `?offset=N&limit=M`.
    case offset
    /// `?cursor=C`, the next cursor in the body.
    case cursor
    /// The full URL of the next page in the body.
    case next
    /// RFC 8288 `Link` headers.
    case link
    /// `?starting_after=ID`, the id of the previous page's last item, until `has_more` is false (Stripe).
    case after
    /// `Range: items=N-M` request headers, the total in `Content-Range`.
    case range
    /// No pages: one request, whose response is the whole list.
    case none

    /// The way of asking for pages this option stands for, with the usual parameter names.
    var kind: PaginationStyle.Kind {
        switch self {
        case .page: PaginationStyle.pageNumber().kind
        case .offset: PaginationStyle.offset().kind
        case .cursor: PaginationStyle.cursor().kind
        case .next: PaginationStyle.nextURL().kind
        case .link: PaginationStyle.linkHeader().kind
        case .after: PaginationStyle.afterLastItem().kind
        case .range: PaginationStyle.range().kind
        case .none: PaginationStyle.singlePage().kind
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

    /// The option that names a style's kind; `page` for the posted styles, which no option names.
    init(_ kind: PaginationStyle.Kind) {
        switch kind {
        case .pageNumber: self = .page
        case .offset: self = .offset
        case .cursor: self = .cursor
        case .nextURL: self = .next
        case .linkHeader: self = .link
        case .afterLastItem: self = .after
        case .singlePage: self = .none
        case .range: self = .range
        case .graphQL, .bodyCursor: self = .page
        }
    }

    /// The query parameter that sets the page size in this style, when it has one.
    var pageSizeParameter: String? {
        switch self {
        case .page: PaginationStyle.pageNumber().pageSizeParameter
        case .offset: PaginationStyle.offset().pageSizeParameter
        case .cursor: PaginationStyle.cursor().pageSizeParameter
        case .next: nil
        case .link: PaginationStyle.linkHeader().pageSizeParameter
        case .after: PaginationStyle.afterLastItem().pageSizeParameter
        case .range, .none: nil
        }
    }

    /// The style this option forces: its way of asking for pages with the usual parameters,
    /// total and end signal.
    var template: PaginationStyle {
        PaginationStyle.named(rawValue) ?? PaginationStyle.pageNumber()
    }
}
