import Crypto
import Foundation
import Slippers

/// The key of a cache's fingerprints of request header values: 32 random bytes its migration
/// made, in its `settings` table (a file's, or a PostgreSQL schema's).
///
/// A page whose response varied on request headers (`Vary: Authorization`) is stored with the
/// HMAC-SHA-256, under this key, of its source's digest of the values
/// (`PageSource.varyKey(for:)`), never with the values; so is the fingerprint of the headers a
/// fleet's shared list is asked with. A stored fingerprint tells whether a later request sends
/// the same values; without this cache's key it cannot be compared with another cache's
/// fingerprints or with digests of guessed credentials. The key is in the cache: whoever holds
/// the whole cache holds the key, as they hold its items.
package struct HeaderFingerprintKey: Sendable {
    /// The name of the key's row in `settings`.
    package static let settingName = "header_fingerprint_key"

    private let key: SymmetricKey

    /// The key written as 64 hexadecimal digits, or `nil` for anything else.
    package init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        key = SymmetricKey(data: bytes)
    }

    /// The stored fingerprint of a source's digest of header values; `nil` for `nil`.
    package func fingerprint(_ digest: String?) -> String? {
        guard let digest else { return nil }
        return Array(HMAC<SHA256>.authenticationCode(for: Data(digest.utf8), using: key)).hexDigits
    }
}

extension HeaderFingerprintKey {
    /// The account requests whose credentials have `credentialDigest` (``PageSource/credentialDigest``)
    /// are filed under when none is declared: derived from the digest's fingerprint under `key`, or
    /// from the digest alone in a cache without a key; anonymous for no credentials.
    package static func account(derivedFrom credentialDigest: String?, key: HeaderFingerprintKey?) -> Account {
        guard let credentialDigest else { return .anonymous }
        return Account(derivedFrom: key?.fingerprint(credentialDigest) ?? credentialDigest)
    }
}

extension Page where Item == RawItem {
    /// The page as a cache stores it: its source's digest of header values
    /// (``PageCaching/varyKey``) replaced by its fingerprint under `key`, or by none without a key.
    package func keyingHeaderDigest(with key: HeaderFingerprintKey?) -> Page<RawItem> {
        var page = self
        page.caching.varyKey = key?.fingerprint(caching.varyKey)
        return page
    }
}
