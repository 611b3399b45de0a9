/// What a caller says about a list's pagination instead of detecting it.
public struct StyleOverrides: Hashable, Sendable {
    /// The way of asking for pages, as a style whose kind and page size parameter (and its
    /// total and end signal, where the detected style has none) are taken when the detected
    /// style asks another way; `nil` to keep the detected way.
    public var style: PaginationStyle?
    /// The key path of the items array; empty for a bare array.
    public var itemsPath: String?
    /// The member of each item that holds its id.
    public var idField: String?
    /// The page size to ask for.
    public var pageSize: Int?

    /// Creates overrides; what is not given is detected.
    public init(
        style: PaginationStyle? = nil, itemsPath: String? = nil, idField: String? = nil, pageSize: Int? = nil
    ) {
        self.style = style
        self.itemsPath = itemsPath
        self.idField = idField
        self.pageSize = pageSize
    }

    /// Whether nothing is overridden.
    public var isEmpty: Bool { self == StyleOverrides() }

    /// `style` with every given override applied.
    public func applied(to style: PaginationStyle) -> PaginationStyle {
        var result = style
        if let forced = self.style, !forced.asksForPagesLike(style) {
            result.kind = forced.kind
            result.pageSizeParameter = forced.pageSizeParameter
            if result.totalKeyPath == nil { result.totalKeyPath = forced.totalKeyPath }
            if result.endSignal == nil { result.endSignal = forced.endSignal }
        }
        if let itemsPath { result.itemsKeyPath = itemsPath }
        if let idField { result.idField = idField }
        if let pageSize {
            result.pageSize = pageSize
            if result.pageSizeParameter == nil { result.pageSizeParameter = Self.usualPageSizeParameter(of: result) }
        }
        return result
    }

    /// The query parameter that usually sets the page size in a style's way of asking for pages.
    static func usualPageSizeParameter(of style: PaginationStyle) -> String? {
        if case .pageNumber = style.kind { return PaginationStyle.pageNumber().pageSizeParameter }
        if case .offset = style.kind { return PaginationStyle.offset().pageSizeParameter }
        if case .cursor = style.kind { return PaginationStyle.cursor().pageSizeParameter }
        if case .linkHeader = style.kind { return PaginationStyle.linkHeader().pageSizeParameter }
        if case .afterLastItem = style.kind { return PaginationStyle.afterLastItem().pageSizeParameter }
        return nil
    }
}
