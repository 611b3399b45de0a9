import Foundation

/// Where an item of a list is written: a URL with `{id}` in it, such as `https://api.example.com/posts/{id}/`.
///
/// By default it is the list's URL path followed by the id, and the list URL's trailing slash
/// if it has one, as Django REST framework and Rails route items; the list's query is left out:
///
/// ```swift
/// ItemURLTemplate(listURL: URL(string: "https://api.example.com/posts/?page=2")!)?.text
/// // "https://api.example.com/posts/{id}/"
/// ItemURLTemplate("https://api.example.com/v2/items/{id}")?.url(for: .string("a b"))
/// // "https://api.example.com/v2/items/a%20b"
/// ```
public struct ItemURLTemplate: Hashable, Sendable {
    /// The template: an absolute http or https URL with `{id}` once.
    public let text: String

    /// A template from its text; `nil` unless it is an absolute http or https URL holding `{id}`.
    public init?(_ text: String) {
        let probe = text.replacingOccurrences(of: "{id}", with: "1")
        guard text.contains("{id}"), let url = URL(string: probe), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { return nil }
        self.text = text
    }

    /// The default template of a list: its path, the id, and its trailing slash if it has one.
    ///
    /// `nil` for a list asked for by POST (a GraphQL connection, a search), whose items have no URL of their own.
    public init?(listURL: URL) {
        guard var components = URLComponents(url: listURL, resolvingAgainstBaseURL: false),
            components.fragment == nil
        else { return nil }
        let encodedPath = components.percentEncodedPath
        components.query = nil
        components.percentEncodedPath = ""
        guard let origin = components.string else { return nil }
        let slash = encodedPath.hasSuffix("/")
        let path = slash ? String(encodedPath.dropLast()) : encodedPath
        self.init(origin + path + "/{id}" + (slash ? "/" : ""))
    }

    /// The URL of the item with `id`, the id percent-encoded as a path segment.
    public func url(for id: ItemKey) -> String {
        text.replacingOccurrences(of: "{id}", with: id.pathSegment)
    }

    /// Where new items are created (`POST`): the template up to its `/{id}`, with the slash that
    /// follows the id if there is one. `https://api.example.com/posts/{id}/` creates at
    /// `https://api.example.com/posts/`.
    public var creationURL: String {
        guard let range = text.range(of: "/{id}") else { return text }
        let slash = text[range.upperBound...].hasPrefix("/") ? "/" : ""
        return String(text[..<range.lowerBound]) + slash
    }
}
