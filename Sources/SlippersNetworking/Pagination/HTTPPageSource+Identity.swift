import Foundation

extension HTTPPageSource {
    /// The origin of the list: its scheme, host and port, as in `https://api.example.com:8443`.
    ///
    /// Two lists of one origin may share items; lists of different origins never do by default.
    public var origin: String { Self.origin(of: url) }

    /// The item type this list's items are filed under when the caller names none.
    ///
    /// The URL's last path component that is not a number (`item` when there
    /// is none), followed by `@` and the ``origin``: `posts@https://api.example.com`.
    /// Items of two hosts therefore never share rows, while two lists of one
    /// API that name the same objects (`/posts` and `/users/1/posts`) do. A
    /// caller that wants items shared across origins names a type of its own.
    public var defaultItemType: String { Self.defaultItemType(for: url) }

    /// The default item type of the list at `url`: see ``defaultItemType``.
    public static func defaultItemType(for url: URL) -> String {
        let components = url.path.split(separator: "/").filter { !$0.allSatisfy(\.isNumber) }
        let name = components.last.map(String.init) ?? "item"
        return "\(name)@\(origin(of: url))"
    }

    /// The origin of `url`: lowercased scheme and host, and the port when the URL names one.
    public static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "http"
        var host = url.host?.lowercased() ?? ""
        // An IPv6 literal keeps its brackets, as in a URL.
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        return url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}
