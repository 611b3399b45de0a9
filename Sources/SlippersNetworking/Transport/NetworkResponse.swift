import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP response: status, headers and body.
public struct NetworkResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers, with the names the server sent.
    public var headers: [String: String]
    /// The response body.
    public var body: Data
    /// The URL the response came from, when known.
    public var url: URL?

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data(), url: URL? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The value of a header, looked up without regard to case.
    public func header(_ name: String) -> String? {
        if let value = headers[name] { return value }
        return headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The `Retry-After` header as a delay: whole seconds, or an HTTP date in the future.
    public var retryAfter: Duration? {
        guard let text = header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(text) { return .seconds(max(0, seconds)) }
        guard let date = Self.parseHTTPDate(text) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses an IMF-fixdate such as `Sun, 06 Nov 1994 08:49:37 GMT`, or returns `nil`.
    static func parseHTTPDate(_ text: String) -> Date? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT",
            let day = Int(fields[1]),
            let month = months.firstIndex(of: fields[2].lowercased()),
            let year = Int(fields[3])
        else { return nil }
        let time = fields[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        let components = DateComponents(
            year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2])
        return calendar.date(from: components)
    }
}
