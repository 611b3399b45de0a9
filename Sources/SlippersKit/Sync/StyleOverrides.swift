/// What a caller says about a list's pagination instead of detecting it.
public struct StyleOverrides: Hashable, Sendable {
    /// The way of asking for pages, as a style whose kind and page size parameter (and its
    /// total and end signal, where the detected style has none) are taken when the detected
    /// style asks another way; `nil` to keep the detected way.
    public var style: PaginationStyle?
    /// The key path of the items array; empty for a bare array.
    package var itemsPath: String?
    /// The member of each item that holds its id.
    public var idField: String?
    /// The page size to ask for.
    var pageSize: Int?
    /// The query parameter that numbers pages, such as `current_page`: the list pages by page numbers;
    /// with a forced ``style`` of offsets, the parameter that takes the offset, such as `skip`.
    var pageParameter: String?
    /// The query parameter that sets the page size, such as `page_size`.
    var pageSizeParameter: String?
    /// The key path of the next cursor in the body, such as `cursor` or `meta.next`: the list pages
    /// by a cursor sent back as ``cursorParameter``.
    package var cursorPath: String?
    /// The query parameter the cursor is sent back as (default `cursor`).
    var cursorParameter: String?
    /// The key path of the list's total in the body, such as `meta.total`.
    var totalPath: String?

    /// Creates overrides; what is not given is detected.
    public init(
        style: PaginationStyle? = nil, itemsPath: String? = nil, idField: String? = nil, pageSize: Int? = nil,
        pageParameter: String? = nil, pageSizeParameter: String? = nil, cursorPath: String? = nil,
        cursorParameter: String? = nil, totalPath: String? = nil
    ) {
        self.style = style
        self.itemsPath = itemsPath
        self.idField = idField
        self.pageSize = pageSize
        self.pageParameter = pageParameter
        self.pageSizeParameter = pageSizeParameter
        self.cursorPath = cursorPath
        self.cursorParameter = cursorParameter
        self.totalPath = totalPath
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
        if let pageParameter, let forced = self.style, case .offset = forced.kind {
            result.kind = .offset(parameter: pageParameter)
            result.advancing = nil
        } else if let pageParameter {
            var firstPage = 1
            if case .pageNumber(_, let first) = result.kind { firstPage = first }
            result.kind = .pageNumber(parameter: pageParameter, firstPage: firstPage)
            result.advancing = nil
        }
        if let cursorPath {
            var parameter = "cursor"
            if case .cursor(let sent, _) = result.kind { parameter = sent }
            result.kind = .cursor(parameter: cursorParameter ?? parameter, keyPath: cursorPath)
            result.advancing = nil
        } else if let cursorParameter, case .cursor(_, let keyPath) = result.kind {
            result.kind = .cursor(parameter: cursorParameter, keyPath: keyPath)
        }
        if let pageSizeParameter { result.pageSizeParameter = pageSizeParameter }
        if let totalPath { result.totalKeyPath = totalPath }
        if let itemsPath { result.itemsKeyPath = itemsPath }
        if let idField { result.idField = idField }
        if let pageSize { result.pageSize = pageSize }
        return result
    }

    /// Whether the overrides change the way pages are asked for, beyond the page size.
    var asksForPagesOtherwise: Bool { style != nil || pageParameter != nil || cursorPath != nil }
}
