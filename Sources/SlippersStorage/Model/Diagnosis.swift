/// The result of checking a cache file's health.
public struct Diagnosis: Hashable, Sendable, Codable {
    /// The lines of `PRAGMA integrity_check`: `["ok"]` when the file is sound.
    public var integrity: [String]
    /// The migrations applied to the file, in order.
    public var appliedMigrations: [String]
    /// The migrations this build knows, in order.
    public var knownMigrations: [String]
    /// Rows that reference a missing row (`PRAGMA foreign_key_check`), one line each.
    public var orphans: [String]
    /// Pages whose stored item count differs from their membership rows, one line each.
    public var inconsistentPages: [String]
    /// Lists whose end was reached with fewer items than their server announced, one line each
    /// (see ``ListInfo/isIncomplete``).
    public var incompleteLists: [String] = []
    /// Pending writes of accounts derived from credentials, one line per account: only a push with
    /// the credentials that made them sends them, which a rotated token no longer is. A note,
    /// not a fault: it does not change ``isHealthy``.
    public var writesOfDerivedAccounts: [String] = []
    /// Where the full-text index of the items disagrees with them, one line each (`doctor --repair`
    /// rebuilds it); empty for a backend without one.
    public var searchIndex: [String] = []

    /// Makes a diagnosis; for backends.
    package init(
        integrity: [String], appliedMigrations: [String], knownMigrations: [String], orphans: [String],
        inconsistentPages: [String], incompleteLists: [String] = []
    ) {
        self.integrity = integrity
        self.appliedMigrations = appliedMigrations
        self.knownMigrations = knownMigrations
        self.orphans = orphans
        self.inconsistentPages = inconsistentPages
        self.incompleteLists = incompleteLists
    }

    /// Whether the file is sound and fully migrated, and every list it calls complete is.
    public var isHealthy: Bool {
        integrity == ["ok"] && appliedMigrations == knownMigrations && orphans.isEmpty
            && inconsistentPages.isEmpty && incompleteLists.isEmpty && searchIndex.isEmpty
    }

    /// Adds a line for each of `lists` that is incomplete.
    public mutating func noteIncompleteLists(_ lists: [ListInfo]) {
        incompleteLists = lists.filter(\.isIncomplete).map { list in
            "\(list.key): \(list.itemCount) of \(list.total ?? 0) items announced"
        }
    }

    /// The last migration applied to the file, if any.
    package var schemaVersion: String? { appliedMigrations.last }
}

extension Diagnosis {
    private enum EncodedKeys: String, CodingKey {
        case healthy, integrity, schemaVersion, appliedMigrations, knownMigrations, orphans, inconsistentPages
        case incompleteLists, writesOfDerivedAccounts, searchIndex
    }

    /// Encodes the diagnosis with its verdict: `healthy` (``isHealthy``) and `schemaVersion` beside the findings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncodedKeys.self)
        try container.encode(isHealthy, forKey: .healthy)
        try container.encode(integrity, forKey: .integrity)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(appliedMigrations, forKey: .appliedMigrations)
        try container.encode(knownMigrations, forKey: .knownMigrations)
        try container.encode(orphans, forKey: .orphans)
        try container.encode(inconsistentPages, forKey: .inconsistentPages)
        try container.encode(incompleteLists, forKey: .incompleteLists)
        try container.encode(writesOfDerivedAccounts, forKey: .writesOfDerivedAccounts)
        try container.encode(searchIndex, forKey: .searchIndex)
    }
}
