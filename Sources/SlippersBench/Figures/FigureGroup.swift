/// A named function that measures and returns one or more related figures.
///
/// `--only NAME` selects groups by their ``id``. Each of the figures
/// is one group whose function measures our code and compares it with the
/// baselines it asks the context for.
struct FigureGroup: Sendable {
    /// A short, stable name for `--only`, e.g. `"read-page"`.
    var id: String
    /// One line for `--list`.
    var summary: String
    var produce: @Sendable (FigureContext) async throws -> [Figure]
}
