/// The key of a cached list, in its parts: the list's own key, the fingerprint of the style it is
/// paged with, and the partition it is kept for.
///
/// Its text (``description``) is what a cache records and what `slippers collections`
/// lists, and ``init(parsing:)`` reads it back, so no module builds or matches key text
/// of its own:
///
/// ```swift
/// let key = CollectionKey("https://api.example.com/posts", styleFingerprint: "5d41402a", partition: "user-42")
/// key.description    // "https://api.example.com/posts [style 5d41402a] [partition: user-42]"
/// CollectionKey(parsing: key.description) == key    // true
/// ```
///
/// The list's own key is any text: for an HTTP list, its URL with the query sorted
/// and the pagination parameters left out; for other sources, whatever names the list
/// (`GET /posts`).
public struct CollectionKey: Hashable, Sendable, CustomStringConvertible {
    /// The list's own key, without style or partition: `https://api.example.com/posts`.
    public var list: String
    /// The fingerprint of the pagination style the list is paged with, when the key carries one:
    /// pagers of one URL paged two ways never share pages.
    public var styleFingerprint: String?
    /// Who the list is kept for, when its responses depend on the caller (the signed-in user).
    public var partition: String?

    /// Creates a key from its parts.
    public init(_ list: String, styleFingerprint: String? = nil, partition: String? = nil) {
        self.list = list
        self.styleFingerprint = styleFingerprint
        self.partition = partition
    }

    /// Reads a key's text back into its parts: the inverse of ``description``.
    ///
    /// Text with no style or partition suffix is a list's own key, whatever it holds.
    public init(parsing text: String) {
        var rest = Substring(text)
        var partition: String?
        if rest.hasSuffix("]"), let start = rest.range(of: Self.partitionOpening, options: .backwards) {
            partition = String(rest[start.upperBound..<rest.index(before: rest.endIndex)])
            rest = rest[..<start.lowerBound]
        }
        var fingerprint: String?
        if let start = rest.range(of: Self.styleOpening, options: .backwards), rest.hasSuffix("]") {
            let candidate = rest[start.upperBound..<rest.index(before: rest.endIndex)]
            if !candidate.isEmpty, candidate.allSatisfy(\.isHexDigit) {
                fingerprint = String(candidate)
                rest = rest[..<start.lowerBound]
            }
        }
        self.init(String(rest), styleFingerprint: fingerprint, partition: partition)
    }

    /// The text a cache records: the list's key, then ` [style F]`, then ` [partition: P]`, each when present.
    public var description: String {
        var text = list
        if let styleFingerprint { text += Self.styleOpening + styleFingerprint + "]" }
        if let partition { text += Self.partitionOpening + partition + "]" }
        return text
    }

    /// This key kept for `partition`; this key itself for `nil`.
    public func partitioned(_ partition: String?) -> CollectionKey {
        guard let partition else { return self }
        var key = self
        key.partition = partition
        return key
    }

    /// The name items of a partitioned list are filed under: a partition keeps its items apart
    /// too, so no item row is shared across partitions. `itemType` itself without a partition.
    public static func itemType(_ itemType: String, partition: String?) -> String {
        guard let partition else { return itemType }
        return itemType + partitionOpening + partition + "]"
    }

    /// The item type a list was given, from the one its partition files items under: the inverse of
    /// ``itemType(_:partition:)``; `itemType` itself when it carries no such partition.
    public static func itemType(_ itemType: String, removingPartition partition: String?) -> String {
        let suffix = Self.itemType("", partition: partition)
        return itemType.hasSuffix(suffix) ? String(itemType.dropLast(suffix.count)) : itemType
    }

    private static let styleOpening = " [style "
    private static let partitionOpening = " [partition: "
}
