import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPPageSource {
    /// The text that stands for a credential's value in what the cache keeps.
    static var credentialPlaceholder: String { CredentialQuery.placeholder }

    /// Whether a query parameter carries a credential (`access_token`, `api_key`, `password`…),
    /// so that its value is never kept in a cache file.
    ///
    /// The rule is narrower than the one that masks URLs in error messages:
    /// a parameter it takes for a credential drops out of the ``listKey``,
    /// so `sort_key=name` and `sort_key=date` must stay two lists.
    package static func isCredentialParameter(_ name: String) -> Bool {
        CredentialQuery.isCredential(name)
    }

    /// The list URL's query items that carry credentials.
    var credentialItems: [URLQueryItem] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.filter { Self.isCredentialParameter($0.name) && $0.value != nil }
    }

    /// A next page's URL as the cache keeps it: the list URL's credentials
    /// that the server copied into it are replaced by ``credentialPlaceholder``.
    func keptToken(_ next: URL) -> PageToken {
        let credentials = credentialItems
        guard !credentials.isEmpty, var components = URLComponents(url: next, resolvingAgainstBaseURL: false),
            let items = components.queryItems
        else { return PageToken(next.absoluteString) }
        components.queryItems = items.map { item in
            guard credentials.contains(item) else { return item }
            return URLQueryItem(name: item.name, value: Self.credentialPlaceholder)
        }
        return PageToken(components.url?.absoluteString ?? next.absoluteString)
    }

    /// The URL a kept next-page token is sent to: each ``credentialPlaceholder``
    /// of a credential parameter takes the value the list URL gives it.
    func sentURL(_ kept: URL) -> URL {
        let credentials = credentialItems
        guard !credentials.isEmpty, var components = URLComponents(url: kept, resolvingAgainstBaseURL: false),
            let items = components.queryItems,
            items.contains(where: { $0.value == Self.credentialPlaceholder })
        else { return kept }
        components.queryItems = items.map { item in
            guard item.value == Self.credentialPlaceholder,
                let credential = credentials.first(where: { $0.name == item.name })
            else { return item }
            return credential
        }
        return components.url ?? kept
    }
}
