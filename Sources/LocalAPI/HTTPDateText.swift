import Foundation

/// A date as HTTP writes it (IMF-fixdate), such as `Sun, 06 Nov 1994 08:49:37 GMT`: for `Last-Modified`
/// and `Retry-After`.
enum HTTPDateText {
    static func string(from date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
