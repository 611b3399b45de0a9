import Foundation

extension ItemKey {
    /// The id as one percent-encoded URL path segment: `42`, `a%20b`; a `/`, `?` or `#` in a string id is encoded.
    public var pathSegment: String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return description.addingPercentEncoding(withAllowedCharacters: allowed) ?? description
    }
}
