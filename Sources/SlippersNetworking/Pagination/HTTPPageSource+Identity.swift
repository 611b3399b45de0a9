import Foundation

extension HTTPPageSource {
    /// The origin of the list, as ``Origin`` writes it: `https://api.example.com:8443`, the port left
    /// out when it is the scheme's default.
    ///
    /// Two lists of one origin may share items; lists of different origins never do by default.
    package var origin: String { Self.originText(of: url) }

    /// The item type this list's items are filed under when the caller names none.
    ///
    /// The URL's last path component that is not a number (`item` when there
    /// is none), followed by `@` and the ``origin``: `posts@https://api.example.com`.
    /// Items of two hosts therefore never share rows, while two lists of one
    /// API that name the same objects (`/posts` and `/users/1/posts`) do. A
    /// caller that wants items shared across origins names a type of its own.
    ///
    /// A GraphQL connection's items are named after the connection's last key instead
    /// (`issues@https://api.github.com`): every GraphQL list of an API has the same URL.
    public var defaultItemType: String {
        guard let name = style.continuation.itemTypeName, !name.isEmpty else { return Self.defaultItemType(for: url) }
        return "\(name)@\(Self.originText(of: url))"
    }

    /// The default item type of the list at `url`: see ``defaultItemType``.
    public static func defaultItemType(for url: URL) -> String {
        let components = url.path.split(separator: "/").filter { !$0.allSatisfy(\.isNumber) }
        let name = components.last.map(String.init) ?? "item"
        return "\(name)@\(originText(of: url))"
    }

    /// ``Origin``'s text for `url`; for a URL without a host (never a list's), its scheme and `://`.
    private static func originText(of url: URL) -> String {
        Origin(url)?.description ?? "\(url.scheme?.lowercased() ?? "http")://"
    }
}
