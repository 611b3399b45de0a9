/// A list whose pages workers share: its collection, and the fingerprint of how its pages are
/// asked for (the URL, the style, the headers' digest).
///
/// Workers share pages only when both match: a worker asking for pages of 100 cannot stage
/// them for one asking for pages of 25, nor one with a credential for one with another, though
/// both file the list under one collection. The fingerprint is a digest; it never holds a
/// credential.
public struct SharedList: Hashable, Sendable {
    /// The list's collection key: its lease and its committed pages.
    public var collection: String
    /// The digest of how its pages are asked for.
    public var fingerprint: String

    /// Creates a shared list.
    public init(collection: String, fingerprint: String) {
        self.collection = collection
        self.fingerprint = fingerprint
    }
}

extension PostgresCache {
    /// The key a list's shared pages are filed under: its collection and its fingerprint keyed
    /// by the cache's key, since a fingerprint covers header values.
    func sharingKey(of list: SharedList) -> String {
        list.collection + "#" + (headerFingerprintKey?.fingerprint(list.fingerprint) ?? list.fingerprint)
    }
}
