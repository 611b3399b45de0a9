import Foundation

extension PaginationStyle {
    /// A detected style, with how sure detection is and what it saw.
    ///
    /// Made by ``PaginationStyle/explain(url:body:headers:)`` from a first
    /// response, or by ``HTTPPageSource/explaining(client:url:headers:)``,
    /// which fetches it.
    ///
    /// For example:
    ///
    /// ```swift
    /// let detection = PaginationStyle.explain(url: url, body: body, headers: headers)
    /// detection.style.kind    // .nextURL(keyPath: #"@odata\.nextLink"#)
    /// detection.confidence    // .high
    /// detection.reasons       // ["OData's @odata.nextLink", "items under value", "items have id"]
    /// ```
    public struct Detection: Codable, Sendable, Hashable {
        /// The style detected.
        public var style: PaginationStyle
        /// How sure detection is.
        public var confidence: Confidence
        /// What detection saw, in the order it looked: keys, headers, URL parameters.
        public var reasons: [String]
        /// The number of items on the first page; `nil` when there is no array at the items key path.
        public var itemCount: Int?
        /// How the list is known to end, in words: see ``PaginationStyle/endOfList``.
        public var endOfList: String
        /// What in the response says that the list pages, in words (`a cursor at cursor`,
        /// `the X-Pagination header`, `a total at count`); empty when nothing does.
        ///
        /// A list with a hint is never taken for one page because its second page repeats
        /// its first: that is a style to correct, and a sync says so.
        public var hints: [String]
        /// Other ways of asking for the next page that fit the first response, in the order to
        /// try them when ``style``'s second page does not advance: a body such as
        /// `{"items": […], "count": 1234}` pages by `?page=` or by `?offset=`, and only a second
        /// request tells which.
        public var alternatives: [PaginationStyle]
        /// The header that announces the list's total (`X-Total-Count`, `X-WP-Total`, `Content-Range`…),
        /// read as a body's total is; `nil` when no header does.
        public var totalHeader: String?
        /// The ways page 2 was asked for to check the style, in words, each with what it brought
        /// back (`?page=2 brought page 1 again`); empty when page 2 was not asked for.
        public var tried: [String] = []
        /// The id member taken by its values alone, no member being named like an id (`name`,
        /// `self_link`): a guess that a later page may refute by repeating its values; `nil` when
        /// the id is named as one.
        public var guessedIDField: String?

        /// Creates a detection.
        public init(
            style: PaginationStyle, confidence: Confidence, reasons: [String], itemCount: Int?,
            hints: [String] = [], alternatives: [PaginationStyle] = []
        ) {
            self.style = style
            self.confidence = confidence
            self.reasons = reasons
            self.itemCount = itemCount
            self.endOfList = style.endOfList
            self.hints = hints
            self.alternatives = alternatives
        }

        /// Whether the way of asking for the second page is a guess to check with a request:
        /// there are ``alternatives`` to it.
        public var needsProbe: Bool { !alternatives.isEmpty }

        private enum CodingKeys: String, CodingKey {
            case style, confidence, reasons, itemCount, endOfList, hints, alternatives, totalHeader, tried
        }

        /// Decodes a detection; one encoded without hints, alternatives, a total header or tries has none.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            style = try container.decode(PaginationStyle.self, forKey: .style)
            confidence = try container.decode(Confidence.self, forKey: .confidence)
            reasons = try container.decode([String].self, forKey: .reasons)
            itemCount = try container.decodeIfPresent(Int.self, forKey: .itemCount)
            endOfList = try container.decode(String.self, forKey: .endOfList)
            hints = try container.decodeIfPresent([String].self, forKey: .hints) ?? []
            alternatives = try container.decodeIfPresent([PaginationStyle].self, forKey: .alternatives) ?? []
            totalHeader = try container.decodeIfPresent(String.self, forKey: .totalHeader)
            tried = try container.decodeIfPresent([String].self, forKey: .tried) ?? []
        }

        /// Encodes every member, an unknown ``itemCount`` or ``totalHeader`` as `null`, so a reader finds
        /// the same keys each time.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(style, forKey: .style)
            try container.encode(confidence, forKey: .confidence)
            try container.encode(reasons, forKey: .reasons)
            try container.encode(itemCount, forKey: .itemCount)
            try container.encode(endOfList, forKey: .endOfList)
            try container.encode(hints, forKey: .hints)
            try container.encode(alternatives, forKey: .alternatives)
            try container.encode(totalHeader, forKey: .totalHeader)
            try container.encode(tried, forKey: .tried)
        }

        /// How sure a detection is.
        public enum Confidence: String, Codable, Sendable, Hashable, CaseIterable, Comparable {
            /// Nothing recognisable: the documented default, page numbers, is a guess.
            case low
            /// One clue, such as an offset in the URL or a total in the body, points at the style.
            case medium
            /// The response names its style: a `Link` header, a next URL or cursor,
            /// or page fields that agree.
            case high

            /// Low before medium before high.
            public static func < (lhs: Confidence, rhs: Confidence) -> Bool {
                allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
            }
        }
    }

    /// How a list in this style is known to end, in words, as `slippers detect` prints it.
    public var endOfList: String { continuation.endOfList(self) }
}
