import ArgumentParser
import SlippersKit

/// How much of a list one run fetches, where its items are filed and how it starts: the options of
/// `sync` that `enqueue` queues alike.
struct SyncOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Fetch at most this many pages in this run.", valueName: "count"))
    var maxPages: Int?

    @Option(
        help: ArgumentHelp(
            "Fetch at most this many items in this run (the page that reaches it is kept whole).",
            valueName: "count"))
    var maxItems: Int?

    @Option(
        help: ArgumentHelp(
            "Stop when this many pages in a row bring no item not already listed.",
            valueName: "count"))
    var stallLimit = SyncOptions.defaultStallLimit

    @Flag(help: "Start again at the first page (a new generation) instead of resuming.")
    var refresh = false

    @Flag(
        help: ArgumentHelp(
            "Walk the cached list with conditional requests and rewrite only the pages that changed.",
            discussion: "The summary counts the pages unchanged, changed, new and removed."))
    var revalidate = false

    @Flag(
        help: ArgumentHelp(
            "Say that the list's new items come first (newest first); recorded with the list.",
            discussion: """
                A complete list whose new items come first is brought up to date by reading from its \
                first page until a page whose items are all cached unchanged: one new item costs two \
                requests. A list whose first page's ids decrease is taken for one without the flag.
                """))
    var newestFirst = false

    @Flag(help: "Cache pages the server marked Cache-Control: no-store (sensitive data) all the same.")
    var keepNoStore = false

    @Option(
        help: ArgumentHelp(
            "The name items are filed under (default: the URL's last path component and its origin, as "
                + "posts@https://api.example.com); lists that name one type share its items.", valueName: "name"))
    var itemType: String?

    /// The pages in a row without a new item that end a walk, unless given.
    static let defaultStallLimit = SyncRequest.Limits.defaultStallLimit

    func validate() throws {
        if let maxPages, maxPages < 1 { throw ValidationError("--max-pages must be 1 or more.") }
        if let maxItems, maxItems < 1 { throw ValidationError("--max-items must be 1 or more.") }
        if stallLimit < 1 { throw ValidationError("--stall-limit must be 1 or more.") }
        if revalidate, refresh { throw ValidationError("--revalidate and --refresh cannot be used together.") }
    }
}
