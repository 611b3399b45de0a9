import Crypto
import Foundation
import Slippers

extension HTTPPageSource {
    /// A digest of the credentials this source's requests carry: SHA-256 over its credential
    /// headers (`Authorization`, `Proxy-Authorization`, `Cookie`, and names that speak of keys,
    /// tokens, secrets, passwords, sessions or signatures, such as `X-Api-Key`) and the credential
    /// parameters of its URL's query (``isCredentialParameter(_:)``), names lowercased and sorted;
    /// `nil` when they carry none.
    ///
    /// A cache keys it again (HMAC-SHA-256 under a key of its own) into the list's derived
    /// ``Account``; the values cannot be read back from either. Headers the client adds as it
    /// sends (an authenticator's `Authorization`) are not seen here: declare the account for those.
    public var credentialDigest: String? {
        Self.credentialDigest(headers: headers, url: url)
    }

    /// The digest of the credentials in `headers` and in the query of `url`, as
    /// ``credentialDigest`` computes it for a source; `nil` when there are none.
    public static func credentialDigest(headers: [String: String], url: URL?) -> String? {
        var credentials = headers.filter { APIClient.isCredential(header: $0.key) }
            .map { (name: "header " + $0.key.lowercased(), value: $0.value) }
        let query = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        credentials += query.compactMap { item in
            guard isCredentialParameter(item.name), let value = item.value else { return nil }
            return (name: "query " + item.name.lowercased(), value: value)
        }
        guard !credentials.isEmpty else { return nil }
        var hash = SHA256()
        for credential in credentials.sorted(by: { ($0.name, $0.value) < ($1.name, $1.value) }) {
            hash.update(data: Data(credential.name.utf8))
            hash.update(data: Data([0]))
            hash.update(data: Data(credential.value.utf8))
            hash.update(data: Data([1]))
        }
        return Array(hash.finalize()).hexDigits
    }
}
