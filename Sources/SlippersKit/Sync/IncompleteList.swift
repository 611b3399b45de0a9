import Slippers
import SlippersNetworking

/// A walk that reached the end of its list holding fewer items than the server announced, or
/// holding gaps: not an exact copy. `slippers sync` prints the run's ``summary`` and exits 3 with this one line.
public struct IncompleteList: Error, CustomStringConvertible, Sendable {
    /// The list's key.
    public var list: String
    /// The total the server announced.
    var announced: Int
    /// The distinct items the cache holds.
    package var stored: Int
    /// The pages the list holds.
    public var pages: Int
    /// The number of items on its first page, when known.
    var firstPageItems: Int?
    /// The style it was paged with.
    public var style: PaginationStyle?
    /// The ids this run met twice: a list that shifted while it was read.
    var repeatedItems = 0
    /// The run's summary line, printed on standard output before this line.
    public var summary: String?
    /// The number of pages the server announced, for a list that announced pages and no item total.
    var announcedPages: Int?
    /// The gaps the list holds between its runs (``ListInfo/gapCount``): items the server has
    /// that no page holds, left by a refresh of a feed in an app.
    public var gaps = 0
    /// The id member detection took by its values alone (``PaginationStyle/Detection/guessedIDField``),
    /// when ids came back on later pages: the member does not key the items.
    var guessedIDField: String?

    /// The line that says what is missing and the flags that fix it.
    public var description: String {
        let key = CredentialQuery.masking(list).shortenedForErrors
        if gaps > 0 {
            return "incomplete: \(key) holds \(counted(gaps, "gap")) where the server has items no page holds "
                + "(a refresh of a feed left them): an app's list fills a gap as it is shown; run sync --refresh "
                + "to walk the list again"
        }
        if guessedIDField != nil, repeatedItems > 0 {
            return "incomplete: \(key) holds \(counted(stored, "item")) in \(counted(pages, "page")), some stored "
                + "over others; \(cause)"
        }
        if let announcedPages {
            return "incomplete: \(key) announced \(counted(announcedPages, "page")) and "
                + "\(counted(pages, "page")) (\(counted(stored, "item"))) are stored; \(cause)"
        }
        return "incomplete: \(key) announced \(counted(announced, "item")) and "
            + "\(counted(stored, "item")) are stored in \(counted(pages, "page")); \(cause)"
    }

    /// The most likely cause, and the flags that fix it.
    private var cause: String {
        if let guessedIDField, repeatedItems > 0 {
            return "no member is named like an id, and \(guessedIDField), taken for one because its values differed "
                + "on the first page, repeats them on later pages: give the member that keys the items with "
                + "--id-field NAME, with --refresh"
        }
        if repeatedItems > 0 {
            return "the list changed while it was read (\(counted(repeatedItems, "id")) met twice): run "
                + "sync --refresh to walk it again"
        }
        if let size = style?.pageSize, let firstPageItems, firstPageItems < size {
            return "most likely the server does not take the page size as ?\(style?.pageSizeParameter ?? "")= "
                + "(it sent \(firstPageItems) of \(size)): give --page-size-param NAME, or leave --page-size out, "
                + "with --refresh"
        }
        if pages <= 1 {
            let kind = style.map { " (\($0.kind.description))" } ?? ""
            return "most likely the server did not page the way it was asked\(kind): describe it with "
                + "--page-param NAME, --cursor-path PATH --cursor-param NAME or --style offset (slippers detect URL "
                + "shows what was seen), with --refresh"
        }
        return "most likely the walk ended early (an empty or short page before the total) or the list shrank "
            + "while it was read: run sync --refresh to walk it again, or --total-path PATH if the total is not "
            + "the list's"
    }
}
