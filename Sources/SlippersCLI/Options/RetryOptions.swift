import ArgumentParser
import Slippers
import SlippersKit
import SlippersNetworking

/// How `sync` retries: each request a few times, and a failing page for a while longer.
struct RetryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How many times one request is tried again after a transient failure.",
            valueName: "count"))
    var retries = RetryOptions.defaults.retries

    @Option(
        help: ArgumentHelp(
            "The wait before the first retry of a request, in seconds; it doubles with each retry, "
                + "up to 10 s, with full jitter.",
            valueName: "seconds"))
    var retryDelay = RetryOptions.defaults.retryDelay

    @Option(
        help: ArgumentHelp(
            "How long sync keeps fetching a failing page again, in seconds, once its request's own "
                + "retries are spent; the time starts afresh for every page.",
            valueName: "seconds"))
    var retryFor = RetryOptions.defaults.retryFor

    func validate() throws {
        if retries < 0 { throw ValidationError("--retries must be 0 or more.") }
        if !(retryDelay >= 0) { throw ValidationError("--retry-delay must be 0 or more.") }
        if !(retryFor >= 0) { throw ValidationError("--retry-for must be 0 or more.") }
    }

    /// The policy of one request, as a sync's request gives it (`SyncRequest.Network.requestRetryPolicy`).
    var requestPolicy: RetryPolicy {
        SyncRequest.Network(retries: retries, retryDelay: retryDelay, retryFor: retryFor).requestRetryPolicy
    }
}
