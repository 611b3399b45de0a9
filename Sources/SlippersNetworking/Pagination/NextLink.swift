import Foundation

/// Where servers give the next page's URL beside a `Link` header: members of the body in their
/// several shapes, and headers that hold the URL alone.
enum NextLink {
    /// The headers that hold the next page's URL as their whole value, in order of preference.
    static let headerNames = ["Next-Page", "X-Next-Page", "X-Next"]

    /// The URL of the next page a response's headers give: a `Link` with `rel="next"`, else one
    /// of ``headerNames`` whose value is a URL (absolute, or a path or query relative to the
    /// request). A page number there (`X-Next-Page: 2`) is no URL, and an empty value says "no next page".
    static func url(header: (String) -> String?) -> (url: String, header: String)? {
        if let link = header("Link"), let next = LinkHeader(link).url(rel: "next") { return (next, "Link") }
        for name in headerNames {
            guard let value = header(name)?.trimmingCharacters(in: .whitespaces), looksLikeURL(value) else {
                continue
            }
            return (value, name)
        }
        return nil
    }

    /// Whether `text` is a URL a next link may hold: absolute over HTTP, or a path or query relative to the request.
    static func looksLikeURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || text.hasPrefix("/")
            || text.hasPrefix("?")
    }
}

extension JSONScanner {
    /// The next page's URL at `path` as ``linkURL(at:)`` reads it, joined to the `base` member
    /// beside it when it is a path and such a member holds an absolute URL: a relative link with
    /// its own base, as `{"_links": {"base": "https://x.test/wiki", "next": "/rest/api/content?start=25"}}`
    /// gives it. Any other relative URL is resolved against the request's.
    func nextPageURL(at path: [String]) -> String? {
        guard let text = linkURL(at: path) else { return nil }
        guard text.hasPrefix("/"), !text.hasPrefix("//"), !path.isEmpty,
            let base = string(at: path.dropLast() + ["base"]),
            base.lowercased().hasPrefix("http://") || base.lowercased().hasPrefix("https://")
        else { return text }
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + text
    }

    /// The next page's URL a member at `path` gives, in any of the shapes servers give it: a
    /// string; a link object's `href` (HAL's `_links.next`, JSON:API's link objects); or, for an
    /// array of link objects (OGC API's and Siren's `links`), the `href` of the one whose `rel`
    /// is `next`, or a list or space-separated string holding `next`.
    func linkURL(at path: [String]) -> String? {
        guard let value = value(at: path) else { return nil }
        switch value.kind {
        case .string:
            return string(value)
        case .object:
            return member("href", of: value).flatMap(string)
        case .array:
            for link in elements(of: value) where link.kind == .object {
                guard let rel = member("rel", of: link) else { continue }
                let rels =
                    rel.kind == .array
                    ? elements(of: rel).compactMap(string)
                    : (string(rel) ?? "").split(separator: " ").map(String.init)
                if rels.contains(where: { $0.caseInsensitiveCompare("next") == .orderedSame }) {
                    return member("href", of: link).flatMap(string)
                }
            }
            return nil
        default:
            return nil
        }
    }
}
