import Foundation
import Slippers
import SlippersNetworking
import SlippersSQLite

extension ItemURLTemplate {
    /// Where the items of a cached list are written: `given`, else the template recorded for
    /// the list (`SQLiteCache.setItemURLTemplate(_:for:)`), else the default of its list URL
    /// (``init(listURL:)``); `nil` for a list asked for by POST, whose items have no URL of their own.
    ///
    /// - throws: A `SQLiteCacheError` reading the recorded template.
    static func forList(_ key: String, cache: SQLiteCache, given: ItemURLTemplate? = nil) throws
        -> ItemURLTemplate?
    {
        if let given { return given }
        if let recorded = try cache.itemURLTemplate(for: key).flatMap(ItemURLTemplate.init) { return recorded }
        return URL(string: ListKey(parsing: key).list).flatMap(ItemURLTemplate.init(listURL:))
    }
}

extension ItemURLTemplate {
    /// Where a write of a cached item goes: `given`, else the URL the item carries of itself
    /// (``ownURL(in:relativeTo:)``), else the list's template (``forList(_:in:given:)``);
    /// `nil` when none is known.
    ///
    /// - throws: A `SQLiteCacheError` reading the recorded template.
    static func writeURL(
        of key: ItemKey, json: Data?, list: String, cache: SQLiteCache, given: ItemURLTemplate? = nil
    ) throws -> String? {
        if let given { return given.url(for: key) }
        let listURL = URL(string: ListKey(parsing: list).list)
        if let json, let own = ownURL(in: json, relativeTo: listURL) { return own }
        return try forList(list, cache: cache)?.url(for: key)
    }

    /// Where new items of a cached list are created (`POST`): the list's own URL, its query
    /// left out (`https://api.example.com/items/` for a list at `…/items/?page=2`), whatever
    /// template its items are written at; `nil` for a list asked for by POST.
    static func insertURL(forList key: String) -> String? {
        guard let url = URL(string: ListKey(parsing: key).list), ItemURLTemplate(listURL: url) != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return nil }
        components.query = nil
        return components.string
    }

    /// The URL an item gives of itself: `url`, `self`, `href`, `_links.self.href` (HAL), `links.self`
    /// or `links.self.href` (JSON:API), when it is an http or https URL (a relative one resolved
    /// against `base`); `nil` when it gives none.
    ///
    /// For example, Django REST framework's `HyperlinkedModelSerializer` items carry `url`.
    static func ownURL(in json: Data, relativeTo base: URL? = nil) -> String? {
        guard let scanner = try? JSONScanner(json), scanner.root.kind == .object else { return nil }
        let paths = [
            ["url"], ["self"], ["href"], ["_links", "self", "href"], ["links", "self"], ["links", "self", "href"],
        ]
        for path in paths {
            guard let text = scanner.string(at: path), !text.isEmpty,
                let url = URL(string: text, relativeTo: base)?.absoluteURL,
                let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
            else { continue }
            return url.absoluteString
        }
        return nil
    }
}
