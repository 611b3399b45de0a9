import Slippers

/// A digest of a page's items: FNV-1a, 64 bits, over each key and JSON, in order.
///
/// It detects a changed page from a server that sends no validator; it is
/// not a defence against an adversary, who could only make the cache keep
/// its own older copy.
package enum PageDigest {
    /// The digest of `items`, in order: their count and the hash, as text.
    package static func of(_ items: [RawItem]) -> String {
        var hash = FNV1a()
        for item in items {
            hash.combine(item.key.description.utf8)
            hash.combine(0)
            hash.combine(item.json)
            hash.combine(1)
        }
        return String(UInt64(items.count), radix: 16) + ":" + hash.shortHex
    }
}
