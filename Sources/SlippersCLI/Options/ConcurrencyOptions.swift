import ArgumentParser
import Slippers
import SlippersKit

/// How many pages `sync` asks for at once.
struct ConcurrencyOptions: ParsableArguments {
    /// The concurrency when none is given: the six connections per host that browsers open.
    static let defaultConcurrency = SyncRequest.Network.defaultConcurrency

    @Option(
        help: ArgumentHelp(
            "The most pages asked for at once, for page-number lists and offset lists with a page size "
                + "(6 unless given: what browsers open per host). A 429 or 503 halves it, honouring Retry-After; it grows back by one per window of "
                + "successful pages. 1 asks for one page after another.",
            valueName: "count"))
    var concurrency = ConcurrencyOptions.defaultConcurrency

    func validate() throws {
        if concurrency < 1 { throw ValidationError("--concurrency must be 1 or more.") }
        if concurrency > 64 { throw ValidationError("--concurrency must be 64 or less.") }
    }
}
