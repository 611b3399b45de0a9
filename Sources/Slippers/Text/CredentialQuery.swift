import Foundation

/// Query parameters that carry credentials, and URLs with their values masked.
///
/// A cache file never holds a credential: the values of these parameters are
/// kept as ``placeholder`` in list keys and page tokens, and printed so.
package enum CredentialQuery {
    /// The text that stands for a credential's value.
    package static let placeholder = "***"

    /// Whether a query parameter carries a credential (`access_token`, `api_key`, `password`…).
    ///
    /// Narrower than the rule that masks URLs in error messages: a parameter
    /// taken for a credential drops out of a list's key, so `sort_key=name`
    /// and `sort_key=date` must stay two lists.
    package static func isCredential(_ name: String) -> Bool {
        let name = name.lowercased()
        if ["key", "api_key", "apikey", "api-key", "access_key", "auth", "sig", "signature", "session", "sessionid"]
            .contains(name)
        {
            return true
        }
        return ["token", "secret", "password", "passwd"].contains { name.hasSuffix($0) }
    }

    /// `text` with the value of each credential query parameter replaced by ``placeholder``,
    /// when it is a URL with such a parameter; `text` itself otherwise.
    package static func masking(_ text: String) -> String {
        guard text.contains("?"), var components = URLComponents(string: text),
            let items = components.queryItems,
            items.contains(where: { isCredential($0.name) && $0.value != nil && $0.value != placeholder })
        else { return text }
        components.queryItems = masking(items)
        return components.string ?? text
    }

    /// The query items with the value of each credential parameter replaced by ``placeholder``.
    package static func masking(_ items: [URLQueryItem]) -> [URLQueryItem] {
        items.map { item in
            guard isCredential(item.name), item.value != nil else { return item }
            return URLQueryItem(name: item.name, value: placeholder)
        }
    }
}
