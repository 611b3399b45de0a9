import ArgumentParser
import SlippersNetworking

/// A pagination style `sync --style` forces instead of detecting one: one of the library's
/// ``PaginationStyle/styleNames``, each the name of a way a list continues.
struct StyleOption: ExpressibleByArgument, Equatable {
    /// The way's name, such as `pageNumber`.
    let rawValue: String

    /// Page numbers, `?page=N&per_page=M`.
    static let pageNumber = StyleOption(known: "pageNumber")
    /// Offsets, `?offset=N&limit=M`.
    static let offset = StyleOption(known: "offset")
    /// Cursors, `?cursor=C`, the next cursor in the body.
    static let cursor = StyleOption(known: "cursor")
    /// No pages: one request, whose response is the whole list.
    static let singlePage = StyleOption(known: "singlePage")

    private init(known name: String) { rawValue = name }

    init?(argument: String) {
        guard PaginationStyle.styleNames.contains(argument) else { return nil }
        rawValue = argument
    }

    static var allValueStrings: [String] { PaginationStyle.styleNames }

    /// The style this option forces: its way of asking for pages with the usual parameters,
    /// total and end signal.
    var template: PaginationStyle {
        PaginationStyle.named(rawValue) ?? PaginationStyle.pageNumber()
    }
}
