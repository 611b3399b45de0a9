/// The key of a cached list, in its parts: the list's own key, the fingerprint of the style it is
/// paged with, and the account it is kept for.
///
/// Its text (``description``) is what a cache records and what `slippers lists`
/// lists, and ``init(parsing:)`` reads it back, so no module builds or matches key text
/// of its own:
///
/// ```swift
/// let key = ListKey("https://api.example.com/posts", styleFingerprint: "5d41402a", account: Account("user-42"))
/// key.description    // "https://api.example.com/posts [style 5d41402a] [account: user-42]"
/// ListKey(parsing: key.description) == key    // true
/// ```
///
/// The list's own key is any text: for an HTTP list, its URL with the query sorted
/// and the pagination parameters left out; for other sources, whatever names the list
/// (`GET /posts`). The anonymous account adds nothing to the text, so the lists cached before
/// accounts existed are the anonymous account's.
public struct ListKey: Hashable, Sendable, CustomStringConvertible {
    /// The list's own key, without style or account: `https://api.example.com/posts`.
    public var list: String
    /// The fingerprint of the pagination style the list is paged with, when the key carries one:
    /// pagers of one URL paged two ways never share pages.
    package var styleFingerprint: String?
    /// Whose list this is: the declared or derived ``Account`` the server answered, or the anonymous one.
    public var account: Account

    /// Creates a key from its parts.
    public init(_ list: String, styleFingerprint: String? = nil, account: Account = .anonymous) {
        self.list = list
        self.styleFingerprint = styleFingerprint
        self.account = account
    }

    /// Reads a key's text back into its parts: the inverse of ``description``.
    ///
    /// Text with no style or account suffix is a list's own key, whatever it holds.
    public init(parsing text: String) {
        var rest = Substring(text)
        var account = Account.anonymous
        if rest.hasSuffix("]"), let start = rest.range(of: Self.accountOpening, options: .backwards) {
            account = Account(String(rest[start.upperBound..<rest.index(before: rest.endIndex)]))
            rest = rest[..<start.lowerBound]
        }
        var fingerprint: String?
        if let start = rest.range(of: Self.styleOpening, options: .backwards), rest.hasSuffix("]") {
            let candidate = rest[start.upperBound..<rest.index(before: rest.endIndex)]
            if !candidate.isEmpty, candidate.allSatisfy(\.isHexDigit) {
                fingerprint = String(candidate)
                rest = rest[..<start.lowerBound]
            }
        }
        self.init(String(rest), styleFingerprint: fingerprint, account: account)
    }

    /// The text a cache records: the list's key, then ` [style F]`, then ` [account: A]`, each when present.
    public var description: String {
        var text = list
        if let styleFingerprint { text += Self.styleOpening + styleFingerprint + "]" }
        return text + Self.suffix(for: account)
    }

    /// This key kept for `account`.
    public func forAccount(_ account: Account) -> ListKey {
        var key = self
        key.account = account
        return key
    }

    /// The name items of `account`'s lists are filed under: an account keeps its items apart
    /// too, so no item row is shared across accounts. `itemType` itself for the anonymous account.
    public static func itemType(_ itemType: String, account: Account) -> String {
        itemType + suffix(for: account)
    }

    /// The item type a list was given, from the one `account` files items under: the inverse of
    /// ``itemType(_:account:)``; `itemType` itself when it carries no such account.
    public static func itemType(_ itemType: String, removingAccount account: Account) -> String {
        let suffix = suffix(for: account)
        return itemType.hasSuffix(suffix) ? String(itemType.dropLast(suffix.count)) : itemType
    }

    /// The account whose items are filed under `itemType`, and the type the list gave them.
    public static func account(ofItemType itemType: String) -> (account: Account, itemType: String) {
        guard itemType.hasSuffix("]"), let start = itemType.range(of: accountOpening, options: .backwards) else {
            return (.anonymous, itemType)
        }
        let name = String(itemType[start.upperBound..<itemType.index(before: itemType.endIndex)])
        return (Account(name), String(itemType[..<start.lowerBound]))
    }

    /// The accounts that list keys and item types belong to, each once, in order.
    package static func accounts(ofKeys keys: [String], itemTypes: [String]) -> [Account] {
        Set(keys.map { ListKey(parsing: $0).account } + itemTypes.map { account(ofItemType: $0).account })
            .sorted()
    }

    /// The text ending a key or an item type of `account`: empty for the anonymous account.
    static func suffix(for account: Account) -> String {
        account.isAnonymous ? "" : accountOpening + account.name + "]"
    }

    private static let styleOpening = " [style "
    private static let accountOpening = " [account: "
}
