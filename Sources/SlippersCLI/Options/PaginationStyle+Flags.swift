import SlippersNetworking

extension PaginationStyle {
    /// The `sync` options that give this style instead of detecting it, shell-quoted where needed:
    /// what `detect` prints, so that a script can pin what was found.
    var commandLineFlags: [String] {
        var flags: [String] = []
        func add(_ name: String, _ value: String) { flags.append("\(name) \(ShellWord.quoted(value))") }
        switch kind {
        case .pageNumber(let parameter, _):
            add("--page-param", parameter)
        case .offset(let parameter):
            add("--style", StyleOption.offset.rawValue)
            if parameter != "offset" { add("--page-param", parameter) }
        case .cursor(let parameter, let keyPath):
            add("--cursor-path", keyPath)
            add("--cursor-param", parameter.isEmpty ? "*" : parameter)
        case .nextURL, .linkHeader, .afterLastItem, .singlePage, .range:
            add("--style", StyleOption(kind).rawValue)
        case .bodyCursor(let cursor) where cursor.isNumbered:
            // Beside the --post-body the list was detected with: the number's path in it, and the size's.
            if case .offset(let path)? = cursor.paging {
                add("--style", StyleOption.offset.rawValue)
                add("--page-param", path)
            } else if case .page(let path, _)? = cursor.paging {
                add("--page-param", path)
            }
            if let path = cursor.pageSizePath { add("--page-size-param", path) }
            if let pageSize { add("--page-size", String(pageSize)) }
            add("--items-path", itemsKeyPath)
            if idField != "id" { add("--id-field", idField) }
            if let totalKeyPath { add("--total-path", totalKeyPath) }
            return flags
        case .graphQL, .bodyCursor:
            return []
        }
        if let pageSizeParameter { add("--page-size-param", pageSizeParameter) }
        if let pageSize { add("--page-size", String(pageSize)) }
        add("--items-path", itemsKeyPath)
        if idField != "id" { add("--id-field", idField) }
        if let totalKeyPath { add("--total-path", totalKeyPath) }
        return flags
    }
}
