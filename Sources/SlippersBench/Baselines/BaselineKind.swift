import Foundation

/// The three baselines: what a user would write instead of Slippers.
enum BaselineKind: String, CaseIterable, Sendable {
    /// (a) The floor: one SQLite row per item through the raw C API.
    case rawSQLite
    /// (b) One JSON file per page.
    case jsonFilePerPage
    /// (c) One SQLite row per page, holding the page's JSON array.
    case rowPerPage

    /// The label used in figure names and the report, e.g. `"(a) raw SQLite rows"`.
    var name: String {
        switch self {
        case .rawSQLite: "(a) raw SQLite rows"
        case .jsonFilePerPage: "(b) JSON file per page"
        case .rowPerPage: "(c) SQLite row per page"
        }
    }

    /// Creates an empty baseline whose files live in `directory`; `synchronous` applies to the SQLite ones.
    func make(in directory: URL, synchronous: SynchronousMode) throws -> any Baseline {
        switch self {
        case .rawSQLite:
            try RawSQLiteBaseline(
                path: directory.appendingPathComponent("raw-sqlite.sqlite").path, synchronous: synchronous)
        case .jsonFilePerPage:
            try JSONFilePerPageBaseline(directory: directory.appendingPathComponent("pages"))
        case .rowPerPage:
            try RowPerPageBaseline(
                path: directory.appendingPathComponent("row-per-page.sqlite").path, synchronous: synchronous)
        }
    }
}
