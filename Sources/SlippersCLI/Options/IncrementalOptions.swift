import ArgumentParser
import Slippers

/// How a list is synced incrementally: the options of `sync` that `enqueue` queues alike.
struct IncrementalOptions: ParsableArguments {
    @Option(
        name: .customLong("incremental"),
        help: ArgumentHelp(
            "Sync only what changed since the last run: the item field whose greatest value is kept, "
                + "such as updated_at (a key path with dots). Needs --since-param.",
            discussion: """
                The first run walks the whole list (or what changed since --initial); later runs \
                ask for the items whose field is newer than the kept value less --lookback, merge \
                them by id, and keep the new greatest value only when the run completes. Items \
                deleted on the server are not seen: sync with --refresh to drop them.
                """,
            valueName: "field"))
    var field: String?

    @Option(
        name: .customLong("since-param"),
        help: ArgumentHelp(
            "The query parameter that asks for the items changed since a value, such as updated_since.",
            valueName: "name"))
    var sinceParameter: String?

    @Option(
        help: ArgumentHelp(
            "How far before the kept value each run asks from, such as 0s, 90s or 1h (default 5m): a date "
                + "less this, a number less its seconds.",
            valueName: "duration"))
    var lookback: Age?

    @Option(
        name: .customLong("initial"),
        help: ArgumentHelp(
            "The value the first run asks from, instead of walking the whole list; sent as it is.",
            valueName: "value"))
    var initialValue: String?

    func validate() throws {
        guard let field else {
            if sinceParameter != nil || lookback != nil || initialValue != nil {
                throw ValidationError("--since-param, --lookback and --initial go with --incremental FIELD.")
            }
            return
        }
        if field.isEmpty || field.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw ValidationError("--incremental needs a field name, such as updated_at or meta.modified.")
        }
        guard let sinceParameter, !sinceParameter.isEmpty else {
            throw ValidationError(
                "--incremental needs --since-param: the query parameter that asks for changes, such as updated_since.")
        }
    }

    /// The settings a request stores, or `nil` when the list is not synced incrementally.
    var request: SyncRequest.Incremental? {
        guard let field, let sinceParameter else { return nil }
        return SyncRequest.Incremental(
            field: field, sinceParameter: sinceParameter, lookback: lookback?.seconds, initialValue: initialValue)
    }
}

extension IncrementalOptions {
    /// The options a request's incremental settings give.
    init(_ incremental: SyncRequest.Incremental?) {
        self.init()
        field = incremental?.field
        sinceParameter = incremental?.sinceParameter
        lookback = incremental?.lookback.map(Age.init(seconds:))
        initialValue = incremental?.initialValue
    }
}
