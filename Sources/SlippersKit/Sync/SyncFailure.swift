import Slippers
import SlippersNetworking

/// Why a ``Syncer`` run did not sync its list, besides the network's, the cache's and detection's
/// own errors; each is one line that names the flags of `slippers sync` that fix it.
public enum SyncFailure: Error, Equatable, Sendable {
    /// The request's URL is not an http or https URL with a host.
    case invalidURL(String)
    /// An allowed or trusted origin of the request is not an http or https origin.
    case invalidOrigin(String)
    /// Page 2 repeated page 1 of a list whose first response said that it pages: the style is wrong.
    case pageRepeatedDespiteHints(list: String, hints: [String], style: PaginationStyle?, tried: [String])
    /// An incremental sync walked a list whose items have no member at the watermark's field.
    case noWatermarkField(list: String, field: String, items: Int)
}

extension SyncFailure: CustomStringConvertible {
    /// The one line that says what went wrong, never with a credential.
    public var description: String {
        switch self {
        case .invalidURL(let url):
            "Not an http or https URL: \(CredentialQuery.masking(url).shortenedForErrors)"
        case .invalidOrigin(let text):
            "Not an http or https origin, such as https://api.example.com:8443: \(text.shortenedForErrors)"
        case .pageRepeatedDespiteHints(let list, let hints, let style, let tried):
            "Page 2 of \"\(CredentialQuery.masking(list).shortenedForErrors)\" repeated page 1, yet its first "
                + "response pages (\(hints.prefix(3).joined(separator: ", ")))"
                + (tried.isEmpty ? "" : "; page 2 was asked for as \(tried.joined(separator: "; "))")
                + ": " + Self.repeatedPageFix(style: style, tried: tried)
        case .noWatermarkField(let list, let field, let items):
            "None of the \(items) items of \"\(CredentialQuery.masking(list).shortenedForErrors)\" has a "
                + "member \(field): give --incremental the member that says when an item changed, such as updated_at"
        }
    }

    /// The options that describe a list whose page 2 repeated page 1, leaving out the ways already tried.
    private static func repeatedPageFix(style: PaginationStyle?, tried: [String]) -> String {
        if case .cursor(let parameter, let keyPath)? = style?.kind, !parameter.isEmpty {
            return "the server takes the cursor at \(keyPath) back under another name: give it with --cursor-path "
                + "\(keyPath) --cursor-param NAME, with --refresh"
        }
        var ways = ["--page-param NAME", "--cursor-path PATH --cursor-param NAME"]
        if !tried.contains(where: { $0.hasPrefix("?offset=") }) { ways.append("--style offset") }
        return "say how to ask for the next page with one of \(ways.joined(separator: ", ")) (slippers detect URL "
            + "shows what was seen), with --refresh; a list that pages inside an encoded parameter is paged when "
            + "its URL names it, as ?q=(page:0,page_size:20)"
    }
}
