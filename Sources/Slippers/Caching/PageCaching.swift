import Foundation

/// What a page's response said about caching it: `Cache-Control`, `Expires`, `Date` and `Vary`.
///
/// A ``PageSource`` fills it from the response's headers; the cache turns it
/// into the page's freshness lifetime and decides whether to keep the page at
/// all. A source without HTTP leaves it empty: no lifetime, no directive.
///
/// For example:
///
/// ```swift
/// let caching = PageCaching(headers: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"])
/// caching.lifetime   // 60
/// caching.vary       // ["accept-language"]
/// ```
public struct PageCaching: Hashable, Sendable, Codable {
    /// The response's `Cache-Control` directives.
    public var cacheControl: CacheControl
    /// The response's `Expires` date, when it sent a valid one.
    var expires: Date?
    /// The response's `Date`, when it sent a valid one.
    package var date: Date?
    /// The request headers the response varies on (`Vary`), lowercased; `*` varies on everything.
    public var vary: [String]
    /// A fingerprint of the request's values of the ``vary`` headers, set by the source that sent it.
    ///
    /// It is a digest, never the values themselves (SHA-256 for HTTP). A cache stores an HMAC of it
    /// under a key of its own, so a stored fingerprint cannot be compared with a digest of a guessed
    /// credential made without that key.
    public var varyKey: String?

    /// Creates caching information; nothing is set unless given.
    public init(
        cacheControl: CacheControl = CacheControl(),
        expires: Date? = nil,
        date: Date? = nil,
        vary: [String] = [],
        varyKey: String? = nil
    ) {
        self.cacheControl = cacheControl
        self.expires = expires
        self.date = date
        self.vary = vary
        self.varyKey = varyKey
    }

    /// Reads the caching headers of a response; names are matched case-insensitively.
    ///
    /// An `Expires` that is not a valid HTTP date (such as `0`) means "already expired".
    public init(headers: [String: String]) {
        var lowercased: [String: String] = [:]
        for (name, value) in headers { lowercased[name.lowercased()] = value }
        self.init(header: { lowercased[$0] })
    }

    /// Reads the caching headers of a response through a lookup by lowercased name.
    public init(header: (String) -> String?) {
        self.init(cacheControl: CacheControl(parsing: header("cache-control")))
        date = header("date").flatMap(HTTPDate.parse)
        if let text = header("expires") {
            expires = HTTPDate.parse(text) ?? .distantPast
        }
        vary = (header("vary") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
    }

    /// How long the response is fresh from when it was received, in seconds, when it says.
    ///
    /// `max-age` wins over `Expires` (RFC 9111 § 4.2.1); `Expires` counts from
    /// the response's `Date`, or from `now` when it sent none. `no-cache` and
    /// `no-store` make it 0: the page must be revalidated before each use.
    public func lifetime(now: Date = Date()) -> TimeInterval? {
        if cacheControl.noCache || cacheControl.noStore { return 0 }
        if let maxAge = cacheControl.maxAge { return maxAge }
        if let expires { return max(0, expires.timeIntervalSince(date ?? now)) }
        return nil
    }

    /// Whether the response varies on `*`: it can never be served from a cache.
    package var variesOnEverything: Bool { vary.contains("*") }
}

/// HTTP dates (RFC 9110 § 5.6.7): the IMF-fixdate form, and the two obsolete forms.
package enum HTTPDate {
    /// The date of an HTTP date field, or `nil` when the text is not one.
    package static func parse(_ text: String) -> Date? {
        var text = text
        if let date = text.withUTF8(parseExactIMFFixdate) { return date }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = parseIMFFixdate(trimmed) { return date }
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` exactly as RFC 9110 spells it (two-digit day, four-digit
    /// year, spaces or tabs around it), read from its bytes: what nearly every server sends, once
    /// a response, without a string made or split. Any other text is `nil`, for the readers below.
    private static func parseExactIMFFixdate(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard end - start == 29 else { return nil }
        let b = UnsafeBufferPointer(rebasing: bytes[start..<end])
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                let digit = Int(b[index]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard b[3] == 0x2C, b[4] == 0x20, b[7] == 0x20, b[11] == 0x20, b[16] == 0x20, b[19] == 0x3A,
            b[22] == 0x3A, b[25] == 0x20, b[26] == 0x47, b[27] == 0x4D, b[28] == 0x54,
            let day = number(5, 2), let year = number(12, 4), let hour = number(17, 2), let minute = number(20, 2),
            let second = number(23, 2),
            let month = monthBytes.firstIndex(where: { $0.0 == b[8] && $0.1 == b[9] && $0.2 == b[10] })
        else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the form servers send, parsed by hand: a `DateFormatter` costs more
    /// to create than a page costs to store, and every response carries a `Date`.
    private static func parseIMFFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        return date(year: year, month: month, day: day, hour: time[0], minute: time[1], second: time[2])
    }

    /// The date of a civil date and time in GMT (`month` from 0), or `nil` when a part is out of range.
    private static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        // Bounded, so that the arithmetic below cannot overflow whatever the header says.
        guard (1...31).contains(day), (1...9999).contains(year), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        // Days from 1970-01-01 to the civil date (Howard Hinnant's days_from_civil).
        let y = month < 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 10) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// ``months`` as the bytes of their names.
    private static let monthBytes: [(UInt8, UInt8, UInt8)] = months.map {
        let bytes = Array($0.utf8)
        return (bytes[0], bytes[1], bytes[2])
    }

    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

}
