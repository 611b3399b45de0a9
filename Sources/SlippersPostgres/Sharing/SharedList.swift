/// A list whose pages workers share: its list, and the fingerprint of how its pages are
/// asked for (the URL, the style, the headers' digest).
///
/// Workers share pages only when both match: a worker asking for pages of 100 cannot stage
/// them for one asking for pages of 25, nor one with a credential for one with another, though
/// both file the list under one list. The fingerprint is a digest; it never holds a
/// credential.
public struct SharedList: Hashable, Sendable {
    /// The list's key: its lease and its committed pages.
    public var list: String
    /// The digest of how its pages are asked for.
    var fingerprint: String

    /// Creates a shared list.
    public init(list: String, fingerprint: String) {
        self.list = list
        self.fingerprint = fingerprint
    }
}

extension PostgresCache {
    /// The key a list's shared pages are filed under: its list and its fingerprint keyed
    /// by the cache's key, since a fingerprint covers header values.
    func sharingKey(of list: SharedList) -> String {
        list.list + "#" + (headerFingerprintKey?.fingerprint(list.fingerprint) ?? list.fingerprint)
    }
}
