import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPPageSource {
    /// What detection found of a list: a source in its style, the pages it read, and why.
    public struct DetectedList: Sendable {
        /// A source in the detected style (after the caller's adjustment), ready to page the list.
        public var source: HTTPPageSource
        /// The first page, read under that style; `nil` when the style asks for it anew (another
        /// page size than the first response has) or was given and not asked for.
        public var firstPage: Page<RawItem>?
        /// Page 2, when detection asked for it to tell ways apart or to check one.
        public var secondPage: Page<RawItem>?
        /// The style detected, with its reasons, alternatives and what page 2 showed.
        public var detection: PaginationStyle.Detection
        /// Whether page 2 was asked for and brought items page 1 did not list.
        public var advanced: Bool
    }

    /// Detects how the list at `url` pages: the one entry point of detection, for lists asked for
    /// by GET and by POST.
    ///
    /// A list asked for by GET has its first page fetched and read by every way's rules
    /// (``PaginationStyle/explain(url:body:headers:)``); `adjust` then applies what the caller
    /// knows better (a page size, the items path), and page 2 is asked for as `pageTwo` says, in
    /// each way detection proposes until one brings new items (at most ``maximumProbes`` requests,
    /// see ``probingSecondPage(firstPage:alternatives:)``). A style whose way of asking `adjust`
    /// changed is the caller's: it is not probed.
    ///
    /// A list asked for by POST has its style given as `posted` (a GraphQL query, a JSON body);
    /// what its first response shows completes it: a GraphQL connection or list whose path or
    /// total is not given, the items, total and id of a body paged by a number. With
    /// ``PageTwoCheck/every``, a body's page 2 is asked for too, and the other connections of a
    /// GraphQL response are named in the reasons.
    ///
    /// For example, what `slippers detect` prints:
    ///
    /// ```swift
    /// let found = try await HTTPPageSource.detect(client: client, url: url, pageTwo: .every)
    /// print(found.detection.style.kind, found.detection.confidence, found.detection.reasons)
    /// ```
    ///
    /// - throws: ``NetworkError`` when the first page cannot be fetched or read under the resulting
    ///   style, or a POST list's response holds no connection or list; ``ProbeFailure`` when every
    ///   way of asking for page 2 was refused or repeated page 1 and the first was refused.
    public static func detect(
        client: APIClient, url: URL, headers: [String: String] = [:], stub: PageStub? = nil,
        posted: PaginationStyle? = nil, pageTwo: PageTwoCheck = .whenUndecided,
        adjusting adjust: @escaping @Sendable (PaginationStyle) -> PaginationStyle = { $0 }
    ) async throws -> DetectedList {
        if let posted, posted.isPosted {
            var source = HTTPPageSource(client: client, url: url, style: posted, headers: headers)
            source.stub = stub
            return try await source.style.continuation.detect(posted: source, pageTwo: pageTwo)
        }
        let detected = try await explainedDetecting(
            client: client, url: url, headers: headers, stub: stub, adjusting: adjust)
        var detection = detected.detection
        let given = detected.source.style.kind != detection.style.kind
        let unnumbered = given ? unnumberedEncodedPage(detected.source.style, url: url) : nil
        let probes: Bool
        switch pageTwo {
        case .never: probes = false
        case .every: probes = true
        case .inferred:
            probes = unnumbered != nil || (!given && (detection.needsProbe || asksByInference(detection.style)))
        case .whenUndecided: probes = !given && detection.needsProbe
        }
        guard probes, let firstPage = detected.firstPage, firstPage.nextToken != nil else {
            // An encoded page the URL does not number, whose first page was not kept (another size was
            // asked for): counted from 0, as the probe asks first. A list from 1 then answers its first
            // page twice, which the walk tells; counted from 1, a list from 0 would lose its first page.
            if let unnumbered, detected.firstPage == nil {
                var source = detected.source
                source.style = unnumbered
                detection.style = unnumbered
                detection.reasons.append("the encoded page the URL does not hold is counted from 0")
                return DetectedList(
                    source: source, firstPage: nil, secondPage: nil, detection: detection, advanced: false)
            }
            return DetectedList(
                source: detected.source, firstPage: detected.firstPage, secondPage: nil, detection: detection,
                advanced: false)
        }
        let probe = try await detected.source.probingSecondPage(
            firstPage: firstPage,
            alternatives: given ? unnumbered.map { [$0] } ?? [] : detection.alternatives.map(adjust))
        detection.reasons.append("asked for page 2: " + probe.tried.joined(separator: "; "))
        detection.tried = probe.tried
        guard let source = probe.source else {
            return DetectedList(
                source: detected.source, firstPage: firstPage, secondPage: nil, detection: detection, advanced: false)
        }
        detection.style = source.style
        detection.alternatives = []
        return DetectedList(
            source: source, firstPage: probe.firstPage, secondPage: probe.secondPage, detection: detection,
            advanced: probe.advanced)
    }

    /// This source's style as given, with nothing asked for, or with the first page read under it.
    func given(reason: String, firstPage: Page<RawItem>? = nil) -> DetectedList {
        let detection = PaginationStyle.Detection(
            style: style, confidence: .high, reasons: [reason], itemCount: firstPage?.items.count)
        return DetectedList(source: self, firstPage: firstPage, secondPage: nil, detection: detection, advanced: false)
    }
}
