import Foundation
import Slippers

/// The rate-limit fields of one response: the budget, what is left of it, when it is whole again, and `Retry-After`.
///
/// Read from any of the forms servers send, the first one present winning field by field:
///
/// - `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (GitHub and many others);
///   the reset is epoch seconds when it is a date after 2001, delta seconds otherwise; an epoch
///   reset less than a second past is a wait of a millisecond (it passed on the way).
/// - The IETF draft's separate fields `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`.
/// - The IETF draft's structured fields: `RateLimit: "default";r=50;t=30` with
///   `RateLimit-Policy: "default";q=100;w=60`, and the older `RateLimit: limit=100, remaining=50, reset=30`
///   with `RateLimit-Policy: 100;w=60`. With several policies, the one with the least left applies.
/// - `Retry-After`, as delta seconds or an HTTP date (a date past is a wait of zero).
///
/// A value that does not parse (a negative number, a word, a date that is not one) is ignored, never an error.
///
/// For example:
///
/// ```swift
/// let limits = RateLimitHeaders(headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1767225600"])
/// limits.isSpent  // true
/// ```
public struct RateLimitHeaders: Sendable, Equatable {
    /// The requests the budget allows in a window.
    package var limit: Int?
    /// The requests left in the current window.
    package var remaining: Int?
    /// How long after the response the budget is whole again.
    package var resetIn: Duration?
    /// The length of the budget's window (`RateLimit-Policy`'s `w`).
    package var window: Duration?
    /// The wait `Retry-After` asks for; zero for `0` or a date past.
    package var retryAfter: Duration?

    /// Creates fields from their values.
    public init(
        limit: Int? = nil, remaining: Int? = nil, resetIn: Duration? = nil, window: Duration? = nil,
        retryAfter: Duration? = nil
    ) {
        self.limit = limit
        self.remaining = remaining
        self.resetIn = resetIn
        self.window = window
        self.retryAfter = retryAfter
    }

    /// Reads the fields of a response's headers (names without regard to case), as of `now`.
    public init(headers: [String: String], now: Date = Date()) {
        var lowercased: [String: String] = [:]
        for (name, value) in headers { lowercased[name.lowercased()] = value }
        self.init(lowercased: lowercased, now: now)
    }

    /// Reads the fields of a response, as of `now`.
    public init(_ response: NetworkResponse, now: Date = Date()) {
        self.init(headers: response.headers, now: now)
    }

    private init(lowercased headers: [String: String], now: Date) {
        limit = headers["x-ratelimit-limit"].flatMap(Self.count)
        remaining = headers["x-ratelimit-remaining"].flatMap(Self.count)
        resetIn = headers["x-ratelimit-reset"].flatMap { Self.reset($0, now: now) }
        limit = limit ?? headers["ratelimit-limit"].flatMap(Self.count)
        remaining = remaining ?? headers["ratelimit-remaining"].flatMap(Self.count)
        resetIn = resetIn ?? headers["ratelimit-reset"].flatMap { Self.reset($0, now: now) }
        if let field = headers["ratelimit"] {
            let state = Self.structuredState(field, policies: headers["ratelimit-policy"], now: now)
            limit = limit ?? state.limit
            remaining = remaining ?? state.remaining
            resetIn = resetIn ?? state.resetIn
            window = state.window
        } else if let policy = headers["ratelimit-policy"].flatMap({ Self.policies($0).first }) {
            limit = limit ?? policy.quota
            window = policy.window
        }
        retryAfter = headers["retry-after"].flatMap { Self.retryAfter($0, now: now) }
    }

    /// Whether the response says the budget is spent: nothing remaining.
    public var isSpent: Bool { remaining == 0 }

    /// Whether the response carries no rate-limit field at all.
    public var isEmpty: Bool { self == RateLimitHeaders() }

    /// Whether an answer with `status` refuses the request for the budget: a `429`, or a `403`,
    /// that says the budget is spent or gives a `Retry-After` (GitHub's secondary limits).
    package func isRefusal(status: Int) -> Bool {
        (status == 429 || status == 403) && (isSpent || retryAfter != nil)
    }

    /// How long the server asks a refused request to wait: `Retry-After`, else the time to the
    /// reset of a spent budget; `nil` when it names no wait.
    package var refusalWait: Duration? {
        retryAfter ?? (isSpent ? resetIn : nil)
    }

    // MARK: - Parsing

    /// Epoch seconds from this value on are dates (2001-09-09); smaller values are delta seconds.
    private static let epochThreshold = 1_000_000_000.0
    /// The longest wait kept: a thousand years, so that no arithmetic on it overflows.
    private static let longestReset = 31_536_000_000.0

    private static func count(_ text: String) -> Int? {
        // `RateLimit-Limit: 100, 100;w=60` names the limit first.
        let first = text.split(separator: ",").first?.split(separator: ";").first ?? ""
        guard let value = Int(first.trimmingCharacters(in: .whitespaces)), value >= 0 else { return nil }
        return value
    }

    private static func seconds(_ text: some StringProtocol) -> Double? {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else {
            return nil
        }
        return value
    }

    private static func duration(_ seconds: Double) -> Duration? {
        guard seconds.isFinite, seconds >= 0, seconds <= longestReset else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    private static func reset(_ text: String, now: Date) -> Duration? {
        guard let value = seconds(text) else { return nil }
        guard value >= epochThreshold else { return duration(value) }
        // A reset less than a second past passed while the answer was on its way: a wait of a
        // millisecond, so that the backoff floor applies and the refusal is not taken for one
        // that names no wait. One further past is a clock apart from ours: a wait of zero.
        let left = value - now.timeIntervalSince1970
        return duration(left > 0 ? left : left > -1 ? 0.001 : 0)
    }

    private static func retryAfter(_ text: String, now: Date) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.first?.isNumber == true || trimmed.first == "-" {
            guard let value = Int(trimmed), value >= 0 else { return nil }
            return duration(Double(value))
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return duration(max(0, date.timeIntervalSince(now)))
    }

    private struct Policy {
        var name: String?
        var quota: Int?
        var window: Duration?
    }

    private struct State {
        var limit: Int?
        var remaining: Int?
        var resetIn: Duration?
        var window: Duration?
    }

    /// The state the `RateLimit` field gives, for its most constrained policy.
    private static func structuredState(_ field: String, policies policyField: String?, now: Date) -> State {
        let policies = policyField.map(Self.policies) ?? []
        var states: [(name: String?, state: State)] = []
        var dictionary = State()
        for member in members(field) {
            if let (key, value) = pair(member.item) {
                // The older draft: `limit=100, remaining=50, reset=30`.
                switch key {
                case "limit": dictionary.limit = count(value)
                case "remaining": dictionary.remaining = count(value)
                case "reset": dictionary.resetIn = reset(value, now: now)
                default: break
                }
                continue
            }
            var state = State()
            state.remaining = member.parameters["r"].flatMap(count)
            state.resetIn = member.parameters["t"].flatMap { reset($0, now: now) }
            let name = unquoted(member.item)
            if let policy = policies.first(where: { $0.name == name }) ?? policies.first {
                state.limit = policy.quota
                state.window = policy.window
            }
            states.append((name, state))
        }
        if dictionary.remaining != nil || dictionary.limit != nil {
            dictionary.window = policies.first?.window
            dictionary.limit = dictionary.limit ?? policies.first?.quota
            states.append((nil, dictionary))
        }
        let chosen = states.map(\.state).filter { $0.remaining != nil }.min { left, right in
            (left.remaining ?? 0, -(left.resetIn?.timeInterval ?? 0)) < (
                right.remaining ?? 0, -(right.resetIn?.timeInterval ?? 0)
            )
        }
        return chosen ?? states.first?.state ?? State()
    }

    /// The policies of a `RateLimit-Policy` field: `"name";q=100;w=60` or the older `100;w=60`.
    private static func policies(_ field: String) -> [Policy] {
        members(field).map { member in
            let bare = member.item.trimmingCharacters(in: .whitespaces)
            let isName = bare.hasPrefix("\"")
            return Policy(
                name: isName ? unquoted(bare) : nil,
                quota: member.parameters["q"].flatMap(count) ?? (isName ? nil : count(bare)),
                window: member.parameters["w"].flatMap(seconds).flatMap(duration))
        }
    }

    /// The members of a structured list: an item and its `;key=value` parameters, split outside quotes.
    private static func members(_ field: String) -> [(item: String, parameters: [String: String])] {
        split(field, on: ",").map { member in
            let parts = split(member, on: ";")
            var parameters: [String: String] = [:]
            for part in parts.dropFirst() {
                if let (key, value) = pair(part) { parameters[key] = value }
            }
            return (parts.first?.trimmingCharacters(in: .whitespaces) ?? "", parameters)
        }
    }

    private static func pair(_ text: String) -> (String, String)? {
        guard !text.trimmingCharacters(in: .whitespaces).hasPrefix("\""),
            let equals = text.firstIndex(of: "=")
        else { return nil }
        let key = text[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
        let value = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        return key.isEmpty ? nil : (key, value)
    }

    private static func unquoted(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") else { return trimmed }
        return String(trimmed.dropFirst().dropLast())
    }

    private static func split(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        for character in text {
            if character == "\"" { inQuotes.toggle() }
            if character == separator, !inQuotes {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
