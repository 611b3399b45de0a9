/// Where an item made locally shows in its list until the server has it.
///
/// The item stays where it was placed while its insert is pending, through refreshes of its
/// page; once the server acknowledges it, the server's pages decide where it stands.
public enum InsertPosition: String, Hashable, Sendable, Codable, CaseIterable {
    /// At the top of the list: the first item of its first page, as a new post in a newest-first feed.
    case first
    /// At the end of what is cached: after the last item of the last cached page.
    case last
}
