import Foundation
import Slippers

extension HTTPPageSource {
    /// What asking for a second page showed: the style whose second page advanced, with its first
    /// two pages, or that none did.
    public struct Probe: Sendable {
        /// The source of the style whose second page brought items the first did not list;
        /// `nil` when no style's did.
        public var source: HTTPPageSource?
        /// The first page, read under ``source``'s style (its next token that style's).
        public var firstPage: Page<RawItem>?
        /// The second page, fetched by the probe: a sync serves it instead of fetching it again.
        public var secondPage: Page<RawItem>?
        /// The ways of asking that were tried, in words, with what each brought back.
        public var tried: [String]
    }

    /// Asks for the second page in this source's style, then in each of `alternatives`, until one
    /// brings items the first page does not list.
    ///
    /// A first response such as `{"items": […], "count": 1234}` does not say whether the list
    /// pages by `?page=` or by `?offset=`: a server that ignores the parameter answers the first
    /// page again. Each try is one request; the page that advances is kept, so a sync spends no
    /// request on it twice.
    ///
    /// - parameter firstPage: The first page, as this source read it.
    /// - throws: What fetching a page throws, other than an HTTP error of a try that is not the last.
    public func probingSecondPage(
        firstPage: Page<RawItem>, alternatives: [PaginationStyle]
    ) async throws -> Probe {
        let firstKeys = Set(firstPage.items.map(\.key))
        var tried: [String] = []
        let candidates = [style] + alternatives
        for (position, candidate) in candidates.enumerated() {
            var source = self
            source.style = candidate
            guard let token = source.token(forPageAt: 1) else { continue }
            let second: Page<RawItem>?
            do {
                second = try await source.fetch(PageRequest(token: token)).page
            } catch let error as NetworkError where position < candidates.count - 1 {
                tried.append("\(candidate.kind.description): \(error.kind)")
                continue
            }
            guard let second, !second.items.isEmpty else {
                tried.append("\(candidate.kind.description): an empty second page")
                continue
            }
            let newKeys = second.items.filter { !firstKeys.contains($0.key) }
            guard !newKeys.isEmpty else {
                tried.append("\(candidate.kind.description): the first page's items again")
                continue
            }
            tried.append("\(candidate.kind.description): new items")
            var first = firstPage
            first.nextToken = token
            return Probe(source: source, firstPage: first, secondPage: second, tried: tried)
        }
        return Probe(source: nil, firstPage: nil, secondPage: nil, tried: tried)
    }

    /// Fetches the first page of a list, detects its style, changes it with `adjust`, and, when
    /// the first response leaves the way of asking for page 2 open (``PaginationStyle/Detection/needsProbe``),
    /// asks for page 2 in each way until one advances (see ``probingSecondPage(firstPage:alternatives:)``).
    ///
    /// A style whose way of asking `adjust` changed is the caller's: it is not probed. The
    /// detection's reasons end with what the probe tried.
    ///
    /// - throws: ``NetworkError`` when the first page cannot be fetched or read under the resulting style.
    package static func probedDetecting(
        client: APIClient, url: URL, headers: [String: String], stub: PageStub?,
        adjusting adjust: @escaping @Sendable (PaginationStyle) -> PaginationStyle
    ) async throws -> (
        source: HTTPPageSource, firstPage: Page<RawItem>?, secondPage: Page<RawItem>?,
        detection: PaginationStyle.Detection
    ) {
        let detected = try await explainedDetecting(
            client: client, url: url, headers: headers, stub: stub, adjusting: adjust)
        var detection = detected.detection
        guard detection.needsProbe, detected.source.style.kind == detection.style.kind,
            let firstPage = detected.firstPage, firstPage.nextToken != nil
        else { return (detected.source, detected.firstPage, nil, detection) }
        let probe = try await detected.source.probingSecondPage(
            firstPage: firstPage, alternatives: detection.alternatives.map(adjust))
        detection.reasons.append("asked for page 2 to tell the ways apart: " + probe.tried.joined(separator: "; "))
        guard let source = probe.source else { return (detected.source, firstPage, nil, detection) }
        detection.style = source.style
        detection.alternatives = []
        return (source, probe.firstPage, probe.secondPage, detection)
    }
}
