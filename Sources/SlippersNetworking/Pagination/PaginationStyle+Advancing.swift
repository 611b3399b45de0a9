import Foundation

extension PaginationStyle {
    /// Whether every page of a list in this style is named without the pages before it, so
    /// that a sync asks for several at once: page numbers, offsets with a page size, and next
    /// URLs or `Link` headers that advance one parameter (``advancing``).
    public var isAddressable: Bool { continuation.isAddressable(self) }

    /// A next URL that names every page: the list's URL with one query parameter advanced by a
    /// constant step from page to page, as Django REST framework's `?page=N` and `?offset=N`,
    /// GitHub's `Link` headers and JSON:API's `page[number]` are.
    ///
    /// Learnt from the first page's next URL (see ``learning(firstURL:nextURL:)``); with it,
    /// ``HTTPPageSource`` names page *k*'s URL without fetching the pages before it, so a
    /// sync asks for several at once. Each page's actual next URL is checked against the
    /// prediction, and a mismatch goes back to one page after another.
    ///
    /// For example, DRF's page-number pagination, whose first page is the bare list URL:
    ///
    /// ```swift
    /// let advancing = PaginationStyle.Advancing.learning(
    ///     firstURL: URL(string: "https://api.example.com/posts/")!,
    ///     nextURL: URL(string: "https://api.example.com/posts/?page=2")!)
    /// advancing?.parameter    // "page"
    /// advancing?.url(forPageAt: 4)?.absoluteString    // "https://api.example.com/posts/?page=5"
    /// ```
    public struct Advancing: Codable, Sendable, Hashable {
        /// The query parameter that advances, such as `page`, `offset` or `page[number]`.
        public var parameter: String
        /// Its value on the first page (for a first URL without it, the value the server implies).
        public var first: Int
        /// How much it advances from one page to the next: 1 for page numbers, the page size for offsets.
        package var step: Int
        /// The second page's URL, as the first page named it (a credential copied into it masked):
        /// every other page's URL is this one with ``parameter`` set.
        package var template: String

        /// Creates an addressing; see ``learning(firstURL:nextURL:)`` for the usual way.
        public init(parameter: String, first: Int, step: Int, template: String) {
            self.parameter = parameter
            self.first = first
            self.step = step
            self.template = template
        }

        /// The URL of the page at `index` (from 0), or `nil` for the first page, which is the list's own URL.
        public func url(forPageAt index: Int) -> URL? {
            guard index > 0, var components = URLComponents(string: template),
                let items = components.percentEncodedQueryItems
            else { return nil }
            let (value, overflow) = step.multipliedReportingOverflow(by: index)
            guard !overflow, case (let sum, false) = first.addingReportingOverflow(value) else { return nil }
            components.percentEncodedQueryItems = items.map { item in
                Self.name(item) == parameter ? URLQueryItem(name: item.name, value: String(sum)) : item
            }
            return components.url
        }

        /// The URL of the page at `index` (from 1) asked for together with the item before it: the
        /// advancing offset one less, and the page size one more; `nil` for page numbers, and for a
        /// URL with no page-size parameter set to the step (such as `limit=50` for a step of 50).
        ///
        /// For example, Django REST framework's limit-offset pagination:
        ///
        /// ```swift
        /// let advancing = PaginationStyle.Advancing(
        ///     parameter: "offset", first: 0, step: 50, template: "https://api.example.com/posts/?limit=50&offset=50")
        /// advancing.overlappingURL(forPageAt: 2)?.absoluteString  // "https://api.example.com/posts/?limit=51&offset=99"
        /// ```
        package func overlappingURL(forPageAt index: Int) -> URL? {
            guard index > 0, step > 1, var components = URLComponents(string: template),
                let items = components.percentEncodedQueryItems
            else { return nil }
            let size = String(step)
            let isSize = { (item: URLQueryItem) in
                Self.name(item) != parameter && Self.isSizeName(Self.name(item)) && item.value == size
            }
            guard items.contains(where: isSize) else { return nil }
            let (value, overflow) = step.multipliedReportingOverflow(by: index)
            guard !overflow, case (let offset, false) = first.addingReportingOverflow(value - 1) else { return nil }
            components.percentEncodedQueryItems = items.map { item in
                if Self.name(item) == parameter { return URLQueryItem(name: item.name, value: String(offset)) }
                return isSize(item) ? URLQueryItem(name: item.name, value: String(step + 1)) : item
            }
            return components.url
        }

        /// The number of pages of a list of `total` items, `pageItemCount` on a full page.
        public func pageCount(forTotal total: Int, pageItemCount: Int) -> Int? {
            let size = step == 1 ? pageItemCount : step
            guard size > 0, total >= 0 else { return nil }
            return max(1, (total + size - 1) / size)
        }

        /// The index of the page whose URL is `url`, when it is one of this list's: for a `rel="last"` link.
        package func pageIndex(of url: URL) -> Int? {
            guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems,
                let value = items.first(where: { Self.name($0) == parameter })?.value.flatMap({ Int($0) }),
                value >= first, (value - first) % step == 0
            else { return nil }
            return (value - first) / step
        }

        /// The addressing of a list whose first page is at `firstURL` and names `nextURL` as the second,
        /// or `nil` when the next URL is not the first with one query parameter advanced.
        ///
        /// The two URLs must share scheme, host, port and path. The advancing parameter is the one
        /// integer that differs (or that the first URL lacks); when several do, one named like a page
        /// number or an offset is taken, never a page size. A page parameter the first URL lacks
        /// starts at the next value less one; an offset, at zero.
        public static func learning(firstURL: URL, nextURL: URL) -> Advancing? {
            guard let first = URLComponents(url: firstURL, resolvingAgainstBaseURL: false),
                let next = URLComponents(url: nextURL, resolvingAgainstBaseURL: false),
                first.scheme?.lowercased() == next.scheme?.lowercased(),
                first.host?.lowercased() == next.host?.lowercased(),
                first.port == next.port, first.percentEncodedPath == next.percentEncodedPath,
                let nextItems = next.percentEncodedQueryItems
            else { return nil }
            let firstValues = Dictionary(
                (first.percentEncodedQueryItems ?? []).map { (name($0), $0.value) }, uniquingKeysWith: { a, _ in a })
            var candidates: [(name: String, first: Int?, next: Int)] = []
            for item in nextItems {
                let key = name(item)
                guard let value = item.value.flatMap({ Int($0) }) else {
                    if firstValues[key] != .some(item.value) { return nil }
                    continue
                }
                let before = firstValues[key] ?? nil
                if before == item.value { continue }
                candidates.append((key, before.flatMap { Int($0) }, value))
            }
            let pageLike = candidates.filter { isAdvancingName($0.name) }
            guard let chosen = candidates.count == 1 ? candidates.first : pageLike.count == 1 ? pageLike.first : nil,
                !isSizeName(chosen.name)
            else { return nil }
            let start: Int
            if let given = chosen.first {
                start = given
            } else if isOffsetName(chosen.name) {
                start = 0
            } else if isPageName(chosen.name) {
                start = chosen.next - 1
            } else {
                return nil
            }
            let step = chosen.next - start
            guard step > 0 else { return nil }
            let advancing = Advancing(
                parameter: chosen.name, first: start, step: step, template: nextURL.absoluteString)
            // Named again from the template, the second page must be the very URL the server gave.
            guard advancing.url(forPageAt: 1)?.absoluteString == nextURL.absoluteString else { return nil }
            return advancing
        }

        private static func name(_ item: URLQueryItem) -> String {
            // Most names have no escape: Foundation's decoding is skipped for them.
            guard item.name.utf8.contains(UInt8(ascii: "%")) else { return item.name }
            return item.name.removingPercentEncoding ?? item.name
        }

        private static func isSizeName(_ name: String) -> Bool {
            let lowered = name.lowercased()
            return ["size", "limit", "per_page", "perpage", "count", "top"].contains { lowered.contains($0) }
        }

        private static func isOffsetName(_ name: String) -> Bool {
            let lowered = name.lowercased()
            return ["offset", "skip", "start"].contains { lowered.contains($0) }
        }

        private static func isPageName(_ name: String) -> Bool {
            let lowered = name.lowercased()
            return lowered == "p" || lowered.contains("page") || lowered.contains("number")
        }

        private static func isAdvancingName(_ name: String) -> Bool {
            !isSizeName(name) && (isOffsetName(name) || isPageName(name))
        }
    }
}
