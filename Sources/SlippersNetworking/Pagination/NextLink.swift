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
    /// array of link objects (OGC API's and Siren's `links`, or `{"rel", "uri"}` objects), the
    /// target of the one whose `rel` is `next`, or a list or space-separated string holding `next`.
    func linkURL(at path: [String]) -> String? {
        guard let value = value(at: path) else { return nil }
        switch value.kind {
        case .string:
            return string(value)
        case .object:
            return linkTarget(of: value)
        case .array:
            for link in elements(of: value) where link.kind == .object && rels(of: link).contains("next") {
                return linkTarget(of: link)
            }
            return nil
        default:
            return nil
        }
    }

    /// The members that hold a link object's target, in order of preference.
    static let linkTargetKeys = ["href", "uri", "url"]

    /// The target of a link object: its `href`, else its `uri` or `url`.
    func linkTarget(of link: Value) -> String? {
        Self.linkTargetKeys.lazy.compactMap { self.member($0, of: link).flatMap(self.string) }.first
    }

    /// The relations of a link object, lowercased: its `rel` as a string (space-separated) or a list.
    func rels(of link: Value) -> [String] {
        guard let rel = member("rel", of: link) else { return [] }
        let names =
            rel.kind == .array
            ? elements(of: rel).compactMap(string) : (string(rel) ?? "").split(separator: " ").map(String.init)
        return names.map { $0.lowercased() }
    }

    /// Whether `array` holds link objects: objects that each carry a `rel` and a target.
    func isLinkArray(_ array: Value) -> Bool {
        let objects = elements(of: array)
        return !objects.isEmpty
            && objects.allSatisfy { $0.kind == .object && member("rel", of: $0) != nil && linkTarget(of: $0) != nil }
    }

    /// The paths of the arrays of link objects under `object`, down to `depth` objects deep, in document order.
    func linkArrays(in object: Value, at path: [String] = [], depth: Int = 4) -> [[String]] {
        guard depth > 0, object.kind == .object else { return [] }
        var found: [[String]] = []
        for key in keys(of: object) {
            guard let value = member(key, of: object) else { continue }
            if value.kind == .array, isLinkArray(value) {
                found.append(path + [key])
            } else if value.kind == .object {
                found += linkArrays(in: value, at: path + [key], depth: depth - 1)
            }
        }
        return found
    }
}
