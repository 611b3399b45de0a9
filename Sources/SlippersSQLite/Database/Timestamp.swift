import Foundation
import GRDB

/// Dates are stored as seconds since 1970: compact, ordered, and cheap to compare in SQL.
extension Date {
    var storedValue: Double { timeIntervalSince1970 }

    init(storedValue: Double) {
        self.init(timeIntervalSince1970: storedValue)
    }

    init?(storedValue: Double?) {
        guard let storedValue else { return nil }
        self.init(timeIntervalSince1970: storedValue)
    }
}
