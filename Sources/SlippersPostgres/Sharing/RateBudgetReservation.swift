import Foundation

/// What ``PostgresCache/reserveRequest(origin:now:)`` found of an origin's shared rate-limit budget.
public enum RateBudgetReservation: Sendable, Hashable {
    /// No worker has recorded a budget for the origin: the request may go.
    case noBudget
    /// A request of the budget was taken, or the budget is whole again: the request may go.
    case granted
    /// The budget is spent: the request waits until this time, then asks again.
    case spent(until: Date)

    /// When the request may go: `nil` for now, or when a spent budget is whole again.
    public var waitUntil: Date? {
        if case .spent(let until) = self { return until }
        return nil
    }
}
