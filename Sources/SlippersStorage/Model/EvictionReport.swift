/// What an eviction removed.
public struct EvictionReport: Hashable, Sendable, Codable {
    /// The number of lists removed.
    public var lists: Int = 0
    /// The number of pages removed.
    public var pages: Int = 0
    /// The number of items removed.
    public var items: Int = 0

    /// Creates a report.
    public init(lists: Int = 0, pages: Int = 0, items: Int = 0) {
        self.lists = lists
        self.pages = pages
        self.items = items
    }
}

extension EvictionReport {
    /// Adds what another eviction removed.
    package static func += (report: inout EvictionReport, other: EvictionReport) {
        report.lists += other.lists
        report.pages += other.pages
        report.items += other.items
    }
}
