import Slippers

extension APIClient {
    /// The same client, reporting each `429 Too Many Requests` and `503 Service Unavailable` it retries,
    /// and each request a rate limit refused, to `concurrency`.
    ///
    /// The controller halves its limit and holds new requests back for the
    /// answer's `Retry-After`, so that a sync sharing it slows down for the
    /// server. The client's own callbacks, if any, are still called first.
    ///
    /// For example:
    ///
    /// ```swift
    /// let concurrency = AdaptiveConcurrency(maximum: 6)
    /// let source = HTTPPageSource(client: client.reportingThrottles(to: concurrency), url: url, style: style)
    /// var sync = ListSync(storage: cache, source: source, list: posts)
    /// sync.concurrency = concurrency
    /// ```
    public func reportingThrottles(to concurrency: AdaptiveConcurrency) -> APIClient {
        var client = self
        let previous = onRetry
        client.onRetry = { event in
            previous?(event)
            if case .http(let status, _) = event.error.kind, status == 429 || status == 503 {
                concurrency.recordThrottle(retryAfter: event.error.retryAfter)
            }
        }
        let previousWait = onRateLimitWait
        client.onRateLimitWait = { wait in
            previousWait?(wait)
            if wait.refusedStatus != nil { concurrency.recordThrottle(retryAfter: wait.delay) }
        }
        return client
    }
}
