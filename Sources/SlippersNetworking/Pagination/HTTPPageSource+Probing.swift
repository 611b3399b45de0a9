import Foundation
import Logging
import Slippers

extension HTTPPageSource {
    /// The most requests detection spends on page 2 to tell its candidates apart.
    static let maximumProbes = 6

    /// What asking for a second page showed: the style whose second page advanced, with its first
    /// two pages, or that none did.
    public struct Probe: Sendable {
        /// The source of the style the walk goes on with: the one whose second page brought items
        /// the first did not list; else the first whose second page was empty (the server took its
        /// parameter, and the list ends there, short of any total it announced); else the first
        /// candidate's, whose second page repeated the first. `nil` when no try told anything.
        var source: HTTPPageSource?
        /// The first page, read under ``source``'s style (its next token that style's).
        package var firstPage: Page<RawItem>?
        /// The second page, fetched by the probe: a sync serves it instead of fetching it again.
        var secondPage: Page<RawItem>?
        /// The ways of asking that were tried, in words, with what each brought back.
        package var tried: [String]
        /// Whether ``secondPage`` brought items the first page did not list: the style is confirmed.
        var advanced = false
    }

    /// Page 2 asked for in every way detection proposed, and refused (`400`, `422`) or answered
    /// with page 1 again in each, the first refused (or a cursor's, answered with page 1 again):
    /// the list pages by a parameter detection cannot guess.
    public struct ProbeFailure: Error, Sendable, CustomStringConvertible {
        /// The list's first URL, credentials masked.
        public var url: String
        /// The style of the first way tried.
        public var style: PaginationStyle
        /// The ways tried, in words, with what each brought back.
        package var tried: [String]

        /// One line: what was tried and the options that describe the list.
        public var description: String {
            let fix =
                style.continuation.probeAdvice
                ?? "the list pages by a parameter of another name: give it with --page-param NAME (and the page "
                + "size's with --page-size-param NAME), or --cursor-path PATH --cursor-param NAME, or --style "
                + "singlePage if the list is one page"
            return "Page 2 of \(url.shortenedForErrors) did not advance: \(Self.grouped(tried)); \(fix)"
        }

        /// The tries in a few words: consecutive ones that brought the same answer said once
        /// (`?cursor=, ?from=, ?after= from next_page brought page 1 again`).
        static func grouped(_ tried: [String]) -> String {
            let outcomes = [" brought page 1 again", " brought an empty page"]
            var parts: [String] = []
            var run: (asked: [String], outcome: String)?
            func close() {
                guard let current = run else { return }
                let sources = current.asked.map { text in
                    text.range(of: " from ").map { String(text[$0.lowerBound...]) }
                }
                let sharedSource = Set(sources).count == 1 ? sources.first ?? nil : nil
                let asked = current.asked.map { text in
                    guard let sharedSource, text.hasSuffix(sharedSource) else { return text }
                    return String(text.dropLast(sharedSource.count))
                }
                parts.append(asked.joined(separator: ", ") + (sharedSource ?? "") + current.outcome)
                run = nil
            }
            for text in tried {
                guard let outcome = outcomes.first(where: text.hasSuffix) else {
                    close()
                    parts.append(text)
                    continue
                }
                let asked = String(text.dropLast(outcome.count))
                if run?.outcome != outcome { close() }
                run = (asked: (run?.asked ?? []) + [asked], outcome: outcome)
            }
            close()
            return parts.joined(separator: "; ")
        }
    }

    /// Asks for the second page in this source's style, then in each of `alternatives`, until one
    /// brings items the first page does not list; at most ``maximumProbes`` requests.
    ///
    /// A first response such as `{"items": […], "count": 1234}` does not say whether the list
    /// pages by `?page=` or by `?offset=`: a server that ignores the parameter answers the first
    /// page again, one that validates its parameters refuses it (`400`, `422`). Each try is one
    /// request; the page that decides is kept, so a sync spends no request on it twice. A page
    /// parameter refused by an answer that names it is not asked again under that name: its
    /// underscore-prefixed names are tried next (see ``replaceRefusedParameter(of:refusal:in:after:)``).
    ///
    /// - parameter firstPage: The first page, as this source read it.
    /// - throws: ``ProbeFailure`` when the first way was refused, or a cursor's brought page 1
    ///   again, and no other advanced; what
    ///   fetching a page throws other than a ``NetworkError`` (a network failure of the first way
    ///   ends the probe without a source, leaving page 2 to the walk and its retries).
    public func probingSecondPage(
        firstPage: Page<RawItem>, alternatives: [PaginationStyle]
    ) async throws -> Probe {
        // Every way tried is logged at `debug`, with what it brought (`--verbose`).
        let logger = client.logger
        let masked = CredentialQuery.masking(url.absoluteString)
        func log(_ tried: [String]) {
            for (number, text) in tried.enumerated() {
                logger.debug(
                    "page 2 probe", metadata: ["list": "\(masked)", "try": "\(number + 1)", "asked": "\(text)"])
            }
        }
        do {
            let probe = try await probing(firstPage: firstPage, alternatives: alternatives)
            log(probe.tried)
            return probe
        } catch let failure as ProbeFailure {
            log(failure.tried)
            throw failure
        }
    }

    private func probing(firstPage: Page<RawItem>, alternatives: [PaginationStyle]) async throws -> Probe {
        let firstKeys = Set(firstPage.items.map(\.key))
        var tried: [String] = []
        var empty: (source: HTTPPageSource, token: PageToken, page: Page<RawItem>)?
        var repeated: Page<RawItem>?
        var refused = false
        // A way given twice (an alternative the caller's options made the first again) is asked once.
        var candidates: [PaginationStyle] = []
        for candidate in [style] + alternatives where !candidates.contains(candidate) { candidates.append(candidate) }
        Self.askFromZeroFirst(&candidates, style: style)
        var position = -1
        while position + 1 < min(candidates.count, Self.maximumProbes) {
            position += 1
            let candidate = candidates[position]
            var source = self
            source.style = candidate
            guard let token = source.token(forPageAt: 1) ?? sameNextToken(candidate, firstPage) else { continue }
            // A server that ignores a cursor's parameter answers page 1 with the same next cursor:
            // read as it is, it shows page 1 again instead of failing as a loop.
            var asking = source
            asking.readsRepeatedCursors = true
            let asked = source.askedText(token)
            let second: Page<RawItem>?
            do {
                // Asked as the walk asks it (with the item before it, where the style can), so that a
                // server that refuses the wider request is learnt here, once.
                let request = PageRequest(token: token, overlapsPreviousPage: asking.asksItemBefore(at: token))
                second = try await asking.fetch(request).page
            } catch let error as NetworkError where error.status == 400 || error.status == 422 {
                if candidate == style { refused = true }
                tried.append("\(asked) was refused (\(Self.refusalText(error)))")
                // This source's own way, dropped for a name refused under a page from 0, was refused too.
                let dropped = Self.replaceRefusedParameter(
                    of: candidate, refusal: error, in: &candidates, after: position)
                if dropped.contains(style) { refused = true }
                continue
            } catch let error as NetworkError {
                // A failure that refutes nothing (a 5xx, a dropped connection, a cursor the server
                // repeats): the first way is left to the walk, with its retries; another is passed over.
                tried.append("\(asked): \(error.kind)")
                if position == 0 { return Probe(source: nil, firstPage: nil, secondPage: nil, tried: tried) }
                continue
            }
            guard let second, !second.items.isEmpty else {
                tried.append("\(asked) brought an empty page")
                if empty == nil, let second { empty = (source, token, second) }
                continue
            }
            // Page 1's first items again are page 1 again, new items or not: a server that ignores the
            // parameter but takes the wider size of a request with the item before it answers page 1
            // and one item more (its first item read as the item before).
            let head = Set(firstPage.items.prefix(2).map(\.key))
            let startsOver = firstPage.items.count > 2 && second.items.contains { head.contains($0.key) }
            guard !startsOver, second.items.contains(where: { !firstKeys.contains($0.key) }) else {
                tried.append("\(asked) brought page 1 again")
                if candidate == style { repeated = second }
                continue
            }
            if second.nextToken == token {
                // New items, and the same cursor again: a server that does not advance; the walk says so.
                tried.append("\(asked) brought new items and named the same cursor again")
                return Probe(source: nil, firstPage: nil, secondPage: nil, tried: tried)
            }
            tried.append("\(asked) brought new items")
            var first = firstPage
            first.nextToken = token
            return Probe(source: source, firstPage: first, secondPage: second, tried: tried, advanced: true)
        }
        if let empty {
            var first = firstPage
            first.nextToken = empty.token
            return Probe(source: empty.source, firstPage: first, secondPage: empty.page, tried: tried)
        }
        if let repeated {
            // A guessed page number whose page 2 repeats page 1 may be a list of one page: the walk
            // decides. A cursor the server answers page 1 to was not taken back: it says so now.
            if style.continuation.mayBeOnePage {
                return Probe(source: self, firstPage: firstPage, secondPage: repeated, tried: tried)
            }
            refused = true
        }
        if refused {
            throw ProbeFailure(url: CredentialQuery.masking(url.absoluteString), style: style, tried: tried)
        }
        return Probe(source: nil, firstPage: nil, secondPage: nil, tried: tried)
    }

    /// The token of page 2 under `candidate` when it reads its next page from page 1 as this style
    /// does: this very style, or a cursor at the same member sent back under another name.
    private func sameNextToken(_ candidate: PaginationStyle, _ firstPage: Page<RawItem>) -> PageToken? {
        candidate == style || style.continuation.readsNextToken(like: candidate.kind) ? firstPage.nextToken : nil
    }

    /// The request for `token` in words, as a user would write it: `?page=2`, `?cursor=…`.
    private func askedText(_ token: PageToken) -> String { style.continuation.askedText(token) }

    /// A refusal in words: its status and what the server said, on one line.
    private static func refusalText(_ error: NetworkError) -> String {
        guard case .http(let status, let snippet) = error.kind else { return "\(error.kind)" }
        let said = snippet.split(whereSeparator: \.isNewline).joined(separator: " ")
        return said.isEmpty ? "\(status)" : "\(status): \(said.prefix(120))"
    }

    /// Whether the way of asking for page 2 that `style` names was inferred from the first
    /// response rather than given by the server: a parameter or a cursor, checked with a request.
    static func asksByInference(_ style: PaginationStyle) -> Bool { style.continuation.asksByInference }

    /// The lists whose page 2 detection asks for before a walk or a pager goes on.
    public enum PageTwoCheck: Sendable {
        /// None: the caller asks for page 2 itself, and detection reads the first response alone.
        case never
        /// Those whose first response leaves two or more ways open (``PaginationStyle/Detection/needsProbe``):
        /// a pager, which asks for page 2 only when it is shown, asks no sooner otherwise.
        case whenUndecided
        /// Those too whose way of asking for page 2 is inferred (a parameter's or a cursor's name),
        /// checked before a sync walks the list.
        case inferred
        /// Every list with a page 2, a next link the server gives included, as `slippers detect` sees it.
        case every
    }
}
