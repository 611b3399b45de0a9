import Foundation
import Slippers

/// A rule by which detection proposes a way from a list's first response: the way's
/// candidate, or `nil` when the response shows nothing of it.
///
/// Every way's rules are asked in order of rank, lowest first, and the first candidate wins: a
/// way the server names outright (a header, a next link) ranks before one inferred from names
/// (a cursor member, an offset), and page numbers, the documented default, come last.
struct DetectionRule: Sendable {
    /// Where the rule is asked among every way's rules: lower first.
    var rank: Int
    /// The candidate, with the reasons it adds to the detection; `nil` when the rule does not apply.
    var propose: @Sendable (inout Detector, DetectionEvidence) -> Detector.Candidate?

    init(rank: Int, propose: @escaping @Sendable (inout Detector, DetectionEvidence) -> Detector.Candidate?) {
        self.rank = rank
        self.propose = propose
    }

    /// Every way's rules, by rank.
    static let ranked: [DetectionRule] = PaginationStyle.Kind.continuations.flatMap { $0.detectionRules }
        .sorted { $0.rank < $1.rank }
}

/// What the first response shows that several ways' rules read.
struct DetectionEvidence: Sendable {
    /// The URL's page size parameter, when it has one of the usual ones.
    var sizeParameter: String?
    /// The page size the URL asks for.
    var urlPageSize: Int?
    /// The key path of the list's total in the body.
    var total: String?
    /// The path of a `has_more` boolean in the body.
    var hasMore: [String]?
    /// The body's own word on the end of the list: a `last` flag, a page count, `has_more`.
    var endSignal: PaginationStyle.EndSignal?
}

extension Detector {
    /// A proposed style and how sure the proposal is.
    typealias Candidate = (PaginationStyle, PaginationStyle.Detection.Confidence)
}
