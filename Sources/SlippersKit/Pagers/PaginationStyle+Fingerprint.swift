import Foundation

extension PaginationStyle {
    /// A short fingerprint of the style, the same in every process: 8 hex digits of a 64-bit FNV-1a
    /// hash of ``storedText()`` of the style ``asGiven``, so that what a sync learns of the server
    /// leaves the key of the list as it was.
    var fingerprint: String {
        String(FNV1a.hash(((try? asGiven.storedText()) ?? "").utf8).hex.prefix(8))
    }

    /// Whether two styles ask for pages the same way (``styleName``), whatever their parameters.
    func asksForPagesLike(_ other: PaginationStyle) -> Bool {
        styleName == other.styleName
    }
}
