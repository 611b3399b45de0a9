/// Whose data a cached page, item, watermark or pending write is: the person (or credential) the
/// server answered.
///
/// Nothing crosses accounts: a page cached for one account is never served, counted or merged
/// for another, items of two accounts never share a row (even with equal ids), and a write
/// queued under one account is pushed only by a push of that account.
///
/// An account is one of three kinds:
///
/// - **declared** by the caller, such as the signed-in user's id: it survives token rotation,
///   so it is the one to use when credentials change (`Account("user-42")`);
/// - **derived** from the credentials a request carries (`Authorization`, `Cookie`, a key or
///   token header, a credential in the query) when none is declared: an HMAC-SHA-256 of their
///   values under a key kept in the cache file, written `~` and 16 hexadecimal digits, so the
///   cache never holds the credential itself;
/// - **anonymous**, for requests that carry no credential, and for everything cached before
///   accounts existed.
///
/// For example:
///
/// ```swift
/// let alice = Account("user-42")
/// alice.description            // "user-42"
/// Account.anonymous.isAnonymous // true
/// Account("anonymous") == .anonymous  // true: the name the command line shows it by
/// ```
public struct Account: Hashable, Sendable, CustomStringConvertible {
    /// The account's name: the declared name, `~` and a fingerprint for a derived one, empty for the anonymous account.
    public let name: String

    /// The account named `name`, as a caller declares it (a user's id). An empty name, or
    /// `anonymous`, is the anonymous account.
    public init(_ name: String) {
        self.name = name == Self.anonymousName ? "" : name
    }

    /// The account of requests that carry no credential.
    public static let anonymous = Account("")

    /// The account whose credentials have `fingerprint` (hexadecimal, such as an HMAC-SHA-256 of
    /// the credentials under a cache's key): `~` and its first 16 digits.
    public init(derivedFrom fingerprint: String) {
        self.name = Self.derivedPrefix + String(fingerprint.prefix(16))
    }

    /// Whether this is the account of requests without credentials.
    public var isAnonymous: Bool { name.isEmpty }

    /// Whether the account was derived from credentials rather than declared: it follows the
    /// credentials, so a rotated token is another account.
    public var isDerived: Bool { name.hasPrefix(Self.derivedPrefix) }

    /// Whether the caller declared the account (neither derived nor anonymous): it survives token rotation.
    public var isDeclared: Bool { !isAnonymous && !isDerived }

    /// The name, or `anonymous` for the anonymous account: what the command line prints and takes.
    public var description: String { isAnonymous ? Self.anonymousName : name }

    private static let anonymousName = "anonymous"
    private static let derivedPrefix = "~"
}

extension Account: Comparable {
    /// Accounts in the order of their names, the anonymous account (an empty name) first.
    public static func < (lhs: Account, rhs: Account) -> Bool { lhs.name < rhs.name }
}
