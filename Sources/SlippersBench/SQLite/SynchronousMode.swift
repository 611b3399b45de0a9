import ArgumentParser

/// SQLite's `PRAGMA synchronous` for the SQLite baselines: how durable a commit is, and what it costs.
///
/// In WAL mode, `normal` syncs the disk only at checkpoints: a commit survives
/// a crash of the process, and may be lost by a power cut or a crash of the
/// system. `full` also syncs the log at every commit, so a commit survives
/// those too; it is what Foundation's `Data.write(to:)` gives the file
/// baseline, which calls `fsync` on every write on Linux. The cache compared
/// with the baselines must run with the same mode, or the report must say so.
enum SynchronousMode: String, CaseIterable, Sendable, ExpressibleByArgument {
    case normal
    case full

    /// The pragma's value, as SQL.
    var sql: String { rawValue.uppercased() }
}
