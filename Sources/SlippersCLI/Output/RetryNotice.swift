import Foundation
import Slippers
import SlippersNetworking
import Synchronization

/// Says on stderr, as a sync waits, what failed, when it tries again and until when it keeps trying.
///
/// Each retry is one line, so a server that refuses connections, answers `5xx`
/// or times out is visible within a second or two, not only when the run gives
/// up. On a terminal the line first clears the progress bar, which the next page redraws.
final class RetryNotice: Sendable {
    /// The attempts one request gets: `--retries` + 1.
    let attemptsPerRequest: Int
    /// How long a failing page is tried again after its first failure: `--retry-for`.
    let retryFor: Duration
    private let isTerminal: Bool
    // The first failure of each page still failing, by page index.
    private let firstFailures = Mutex<[Int: Date]>([:])

    /// Creates a notice for a run whose requests get `attemptsPerRequest` attempts, and pages `retryFor`.
    init(attemptsPerRequest: Int, retryFor: Duration, isTerminal: Bool = ProgressBar.isStandardErrorATerminal) {
        self.attemptsPerRequest = attemptsPerRequest
        self.retryFor = retryFor
        self.isTerminal = isTerminal
    }

    /// The notice of a run with `network`'s retries (the defaults where it gives none); `nil` when
    /// `verbose`, whose log says as much.
    static func forRun(
        _ network: SyncRequest.Network, verbose: Bool, isTerminal: Bool = ProgressBar.isStandardErrorATerminal
    ) -> RetryNotice? {
        verbose
            ? nil
            : RetryNotice(
                attemptsPerRequest: (network.retries ?? SyncRequest.Network.defaultRetries) + 1,
                retryFor: .seconds(network.retryFor ?? SyncRequest.Network.defaultRetryFor), isTerminal: isTerminal)
    }

    /// A request failed and is sent again after `event.delay`.
    func requestRetry(_ event: APIClient.RetryEvent) {
        write(
            "\(event.error); attempt \(event.attempt) of \(attemptsPerRequest), trying again in "
                + Self.seconds(event.delay))
    }

    /// The page at `index` failed after its request's attempts and is fetched again after `wait`.
    func pageRetry(index: Int, error: any Error, wait: Duration) {
        let now = Date()
        let first = firstFailures.withLock { failures in
            if let first = failures[index] { return first }
            failures[index] = now
            return now
        }
        let until = first.addingTimeInterval(retryFor.timeInterval)
        write(
            "page \(index + 1) still failing: \(error); trying again in \(Self.seconds(wait)), "
                + "until \(Self.clockTime(until)) (--retry-for \(retryFor.components.seconds))")
    }

    /// Requests wait for a rate limit: one line when the wait starts, none for other requests refused during it.
    ///
    /// The host names the limit and no credential: `rate limit of api.example.com spent: waiting until
    /// 14:03:07 (in 42 s)`, in local time.
    func rateLimitWait(_ wait: APIClient.RateLimitWait) {
        guard wait.startsWait else { return }
        let host = wait.origin.host.contains(":") ? "[\(wait.origin.host)]" : wait.origin.host
        let isDefaultPort = wait.origin.port == (wait.origin.isSecure ? 443 : 80)
        let name = isDefaultPort ? host : "\(host):\(wait.origin.port)"
        let seconds = Int(wait.delay.timeInterval.rounded(.up))
        write("rate limit of \(name) spent: waiting until \(Self.clockTime(wait.until)) (in \(seconds) s)")
    }

    private func write(_ message: String) {
        let line = "slippers: " + message.split(whereSeparator: \.isNewline).joined(separator: " ")
        // On a terminal, \r and ESC [2K clear the progress bar's line first.
        StandardError.write(isTerminal ? "\r\u{1B}[2K" + line : line)
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", duration.timeInterval)
    }

    private static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}
