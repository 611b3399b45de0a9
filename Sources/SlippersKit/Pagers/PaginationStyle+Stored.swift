import Foundation

extension PaginationStyle {
    /// The style as a collection records it: JSON with sorted keys, the same text for the same style.
    ///
    /// - throws: `EncodingError`, which a style does not raise.
    public func storedText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The style a collection recorded, or `nil` when the text is not a style (another source's, or none).
    public init?(storedText text: String?) {
        guard let text, let style = try? JSONDecoder().decode(PaginationStyle.self, from: Data(text.utf8)) else {
            return nil
        }
        self = style
    }

    /// A short fingerprint of the style, the same in every process: 8 hex digits of a 64-bit FNV-1a
    /// hash of ``storedText()``.
    var fingerprint: String {
        String(FNV1a.hash(((try? storedText()) ?? "").utf8).hex.prefix(8))
    }

    /// The name of the way of asking for pages, as in `pageNumber` or `linkHeader`; parameters aside.
    var kindName: String {
        if case .singlePage = kind { return "singlePage" }
        return Mirror(reflecting: kind).children.first?.label ?? String(describing: kind)
    }

    /// Whether two styles ask for pages the same way, whatever their parameters.
    func asksForPagesLike(_ other: PaginationStyle) -> Bool {
        kindName == other.kindName
    }
}
