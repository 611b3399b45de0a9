import SlippersNetworking

/// What `sync` was told about the pagination instead of detecting it.
struct StyleOverrides: Equatable {
    /// The way of asking for pages.
    var style: StyleOption?
    /// The key path of the items array; empty for a bare array.
    var itemsPath: String?
    /// The member of each item that holds its id.
    var idField: String?
    /// The page size to ask for.
    var pageSize: Int?

    /// `style` with every given override applied.
    func applied(to style: PaginationStyle) -> PaginationStyle {
        var result = style
        if let option = self.style, StyleOption(style.kind) != option {
            result.kind = option.kind
            result.pageSizeParameter = option.pageSizeParameter
            if option == .offset, result.totalKeyPath == nil { result.totalKeyPath = "total" }
            if option == .after, result.endSignal == nil {
                result.endSignal = PaginationStyle.afterLastItem().endSignal
            }
        }
        if let itemsPath { result.itemsKeyPath = itemsPath }
        if let idField { result.idField = idField }
        if let pageSize {
            result.pageSize = pageSize
            if result.pageSizeParameter == nil { result.pageSizeParameter = StyleOption(result.kind).pageSizeParameter }
        }
        return result
    }
}
