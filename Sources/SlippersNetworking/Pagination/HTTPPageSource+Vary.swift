import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPPageSource {
    /// The fingerprint of the values a page request of this source carries for `headerNames`.
    ///
    /// The same headers as ``fetch(_:)`` sets: `Accept`, then ``headers``.
    /// Headers the client adds as it sends (an authenticator's `Authorization`)
    /// are not seen here: declare the account on the pager for those.
    public func varyKey(for headerNames: [String]) -> String? {
        var request = URLRequest(url: url)
        request.setValue(style.accept ?? "application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return PageCaching.varyKey(for: headerNames) { request.value(forHTTPHeaderField: $0) }
    }
}
