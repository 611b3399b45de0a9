import ArgumentParser
import Slippers
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

    /// The policy of one request.
    var requestPolicy: RetryPolicy {
        RetryPolicy(maxAttempts: retries + 1, baseDelay: .seconds(retryDelay), maxDelay: .seconds(max(10, retryDelay)))
    }

    /// The budget of a failing page, beyond its request's own retries.
    var pageBudget: RetryBudget {
        RetryBudget(
            duration: .seconds(retryFor), baseDelay: .seconds(retryDelay * 2), maxDelay: .seconds(max(30, retryDelay)))
    }
}
