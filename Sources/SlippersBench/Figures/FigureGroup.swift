/// A named function that measures and returns one or more related figures.
///
/// `--only NAME` selects groups by their ``id``. Each figure
/// is one group whose function measures our code and compares it with the
/// baselines it asks the context for.
struct FigureGroup: Sendable {
    /// A short, stable name for `--only`, e.g. `"read-page"`.
    var id: String
    /// One line for `--list`.
    var summary: String
    /// Synchronous on purpose: the whole benchmark runs on the main thread, without an async
    /// main, so that `valgrind --tool=callgrind` can run it (it crashes on the async main's
    /// `dispatch_main` on this toolchain).
    var produce: @Sendable (FigureContext) throws -> [Figure]
}
