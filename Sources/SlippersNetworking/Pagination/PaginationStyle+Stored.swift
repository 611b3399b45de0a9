import Foundation

extension PaginationStyle {
    /// The style as a list records it: JSON with sorted keys, the same text for the same style.
    ///
    /// - throws: `EncodingError`, which a style does not raise.
    public func storedText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The style a list recorded, or `nil` when the text is not a style (another source's, or none).
    public init?(storedText text: String?) {
        guard let text, let style = try? JSONDecoder().decode(PaginationStyle.self, from: Data(text.utf8)) else {
            return nil
        }
        self = style
    }

    /// The style as it was given or detected: without what syncs learnt of the server (``maxPageSize``).
    ///
    /// Two styles that are the same but for what was learnt page the same list alike.
    public var asGiven: PaginationStyle {
        var style = self
        style.maxPageSize = nil
        return style
    }
}
