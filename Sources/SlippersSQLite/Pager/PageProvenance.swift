/// Where one page of a ``Pager``'s window came from, and how far it can be trusted.
public enum PageProvenance: String, Hashable, Sendable, CaseIterable {
    /// The network delivered the page, or confirmed it (`304`, or the same items by digest), in this session.
    case network
    /// The page was read from the cache within its freshness lifetime (`Cache-Control: max-age`,
    /// `Expires`, or the policy's `maxAge`): served without a request.
    case fresh
    /// The page was read from the cache and the network has not confirmed it in this session:
    /// it may be out of date (a refresh marked it unverified, its lifetime ran out, or the network failed).
    case cache
}

extension PageProvenance: CustomStringConvertible {
    /// The provenance's name, as in `network`: what a log line or `print(state.pageProvenances)` shows.
    public var description: String { rawValue }
}
