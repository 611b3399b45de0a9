import Slippers

/// A digest of a page's items: XXH64 chained over each key and JSON, in order, with their count.
///
/// It detects a changed page from a server that sends no validator; it is
/// not a defence against an adversary, who could only make the cache keep
/// its own older copy. A digest stored by an earlier version (FNV-1a, without
/// the leading `x`) is not this one's: ``isCurrent(_:)`` says so, and the page's
/// items are compared instead.
package enum PageDigest {
    /// The digest of `items`, in order: `x`, their count and the hash, as text.
    package static func of(_ items: [RawItem]) -> String {
        var hash: UInt64 = 0
        for item in items {
            var key = item.key.description
            hash = key.withUTF8 { XXH64.hash(of: UnsafeRawBufferPointer($0), seed: hash) }
            hash = item.json.withUnsafeBytes { XXH64.hash(of: $0, seed: hash) }
        }
        return "x" + String(UInt64(items.count), radix: 16) + ":" + String(hash, radix: 16)
    }

    /// Whether a digest stored with a page is made as ``of(_:)`` makes one now, so that comparing
    /// the two says whether the items are the same.
    package static func isCurrent(_ stored: String) -> Bool { stored.hasPrefix("x") }
}
