extension Array {
    /// The elements of one page of this array, served as paginated batches.
    ///
    /// Pages are numbered from `firstPage`. The last page may be partial; a
    /// page before the first or past the end is empty.
    ///
    /// For example, `Array(1...5).page(2, size: 2)` is `[3, 4]` and
    /// `Array(1...5).page(3, size: 2)` is `[5]`.
    ///
    /// - precondition: `size > 0`.
    public func page(_ page: Int, size: Int, firstPage: Int = 1) -> ArraySlice<Element> {
        precondition(size > 0, "page size must be positive")
        let index = page - firstPage
        guard index >= 0, index < (count + size - 1) / size else { return [] }
        let start = index * size
        return self[start..<Swift.min(start + size, count)]
    }

    /// The number of pages of `size` elements this array makes; a partial last page counts.
    ///
    /// - precondition: `size > 0`.
    public func pageCount(size: Int) -> Int {
        precondition(size > 0, "page size must be positive")
        return (count + size - 1) / size
    }
}

extension Array where Element: Sendable {
    /// This array as a ``PageSource`` of pages of `pageSize`, numbered from `firstPage`.
    public func pageSource(pageSize: Int, firstPage: Int = 1) -> ArrayPageSource<Element> {
        ArrayPageSource(self, pageSize: pageSize, firstPage: firstPage)
    }
}

/// A ``PageSource`` that serves an in-memory array, for tests and demos.
///
/// Tokens are page numbers; the first request (no token) gets `firstPage`.
/// Every page carries the array's count as its total.
public struct ArrayPageSource<Item: Sendable>: PageSource {
    /// All the items, in order.
    public let elements: [Item]
    /// The number of items in a full page.
    let pageSize: Int
    /// The number of the first page.
    package let firstPage: Int

    /// Creates a source over `elements`.
    ///
    /// - precondition: `pageSize > 0`.
    public init(_ elements: [Item], pageSize: Int, firstPage: Int = 1) {
        precondition(pageSize > 0, "page size must be positive")
        self.elements = elements
        self.pageSize = pageSize
        self.firstPage = firstPage
    }

    /// Serves the page the request's token names.
    ///
    /// - throws: `CancellationError` when the task is cancelled, and
    ///   ``ArrayPageSource/InvalidToken`` for a token that is not a page number.
    public func fetch(_ request: PageRequest) async throws -> PageResult<Item> {
        try Task.checkCancellation()
        let number: Int
        if let token = request.token {
            guard let value = token.intValue else { throw InvalidToken(token: token) }
            number = value
        } else {
            number = firstPage
        }
        let items = Array(elements.page(number, size: pageSize, firstPage: firstPage))
        let isLast = number - firstPage + 1 >= elements.pageCount(size: pageSize)
        return .page(
            Page(
                items: items,
                token: request.token,
                nextToken: isLast ? nil : PageToken(number + 1),
                total: elements.count
            ))
    }

    /// The error of a token that is not a page number.
    public struct InvalidToken: Error, CustomStringConvertible {
        /// The token that was given.
        public var token: PageToken
        public var description: String { "Page token \"\(token)\" is not a page number" }
    }
}
