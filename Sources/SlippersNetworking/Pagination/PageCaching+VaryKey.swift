import Crypto
import Foundation
import Slippers

extension PageCaching {
    /// The fingerprint of a request's values of the headers `names`, looked up by name; `nil` for no name.
    ///
    /// Two requests with the same values have the same fingerprint; the values cannot be read back
    /// from it (SHA-256 over the lowercased, sorted names and their values). A cache keys it again
    /// before it stores it (HMAC-SHA-256 under a key of its own).
    ///
    /// For example:
    ///
    /// ```swift
    /// let key = PageCaching.varyKey(for: ["Authorization"]) { _ in "Bearer …" }
    /// ```
    public static func varyKey(for names: [String], requestHeader: (String) -> String?) -> String? {
        guard !names.isEmpty else { return nil }
        var hash = SHA256()
        for name in names.map({ $0.lowercased() }).sorted() {
            hash.update(data: Data(name.utf8))
            hash.update(data: Data([0]))
            hash.update(data: Data((requestHeader(name) ?? "").utf8))
            hash.update(data: Data([1]))
        }
        return Array(hash.finalize()).hexDigits
    }
}
