import Foundation

extension FixturePage {
    /// `/header-cursor`: `?cursor=c<position>&limit=M` over a bare array; the next page's cursor in an
    /// `X-Next-Cursor` header, absent on the last page. `nil` for a cursor of another make.
    func renderHeaderCursor() -> (body: String, headers: [String: String])? {
        var start = 0
        if let cursor = query["cursor"] {
            guard cursor.hasPrefix("c"), let position = Int(cursor.dropFirst()), position >= 0 else { return nil }
            start = position
        }
        guard let limit = integer("limit", default: configuration.pageSize), limit > 0 else { return nil }
        let end = min(start + limit, total)
        let headers = end < total ? ["X-Next-Cursor": "c\(isAdvancing ? end : start)"] : [:]
        return (catalog.json(positions: start..<max(start, end)), headers)
    }
}
