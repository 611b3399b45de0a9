import Foundation

/// The directives of a response's `Cache-Control` header that a private client cache acts on.
///
/// Parsing never fails: unknown directives are ignored, a malformed number
/// leaves its directive unset, as RFC 9111 asks of a cache. For example:
///
/// ```swift
/// let directives = CacheControl(parsing: "max-age=60, stale-while-revalidate=30")
/// directives.maxAge                // 60
/// directives.staleWhileRevalidate  // 30
/// ```
public struct CacheControl: Hashable, Sendable, Codable {
    /// `max-age`: how long the response stays fresh, in seconds.
    public var maxAge: TimeInterval?
    /// `no-cache`: the response may be stored, but must be revalidated before each use.
    public var noCache: Bool
    /// `no-store`: the response must not be stored.
    public var noStore: Bool
    /// `must-revalidate`: once stale, the response must not be served without revalidation.
    package var mustRevalidate: Bool
    /// `stale-while-revalidate` (RFC 5861): how long after it goes stale the response may still be
    /// served while it is revalidated in the background, in seconds.
    public var staleWhileRevalidate: TimeInterval?
    /// `stale-if-error` (RFC 5861): how long after it goes stale the response may still be served
    /// when revalidating it fails, in seconds.
    public var staleIfError: TimeInterval?

    /// Creates directives; none is set unless given.
    public init(
        maxAge: TimeInterval? = nil,
        noCache: Bool = false,
        noStore: Bool = false,
        mustRevalidate: Bool = false,
        staleWhileRevalidate: TimeInterval? = nil,
        staleIfError: TimeInterval? = nil
    ) {
        self.maxAge = maxAge
        self.noCache = noCache
        self.noStore = noStore
        self.mustRevalidate = mustRevalidate
        self.staleWhileRevalidate = staleWhileRevalidate
        self.staleIfError = staleIfError
    }

    /// Parses the value of a `Cache-Control` header; an absent header is `nil`, no directive.
    ///
    /// Directive names are case-insensitive and values may be quoted. When a
    /// directive repeats, the first occurrence counts.
    public init(parsing header: String?) {
        self.init()
        guard let header else { return }
        var seen: Set<String> = []
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let rawName = pieces.first else { continue }
            let name = rawName.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty, seen.insert(name).inserted else { continue }
            let value = pieces.count > 1 ? Self.seconds(pieces[1]) : nil
            switch name {
            case "max-age": maxAge = value
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate": mustRevalidate = true
            case "stale-while-revalidate": staleWhileRevalidate = value
            case "stale-if-error": staleIfError = value
            default: continue
            }
        }
    }

    /// A delta-seconds value, quoted or not; `nil` when it is not a non-negative integer.
    private static func seconds(_ text: Substring) -> TimeInterval? {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        guard !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) else { return nil }
        // A value too large for Int is "infinity" for a cache: cap it, as RFC 9111 § 1.2.2 allows.
        return TimeInterval(Int(value) ?? Int(Int32.max))
    }
}
