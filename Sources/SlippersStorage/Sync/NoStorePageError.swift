/// A page whose response said `Cache-Control: no-store`, which a sync does not cache unless told to.
///
/// The server marked the data sensitive. ``ListSync`` stops before such a
/// page, with the pages before it saved; set ``ListSync/keepsNoStorePages``
/// (`slippers sync --keep-no-store`) to cache them all the same.
public struct NoStorePageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The list's key.
    public var list: String
    /// The index of the page, from 0.
    public var index: Int

    /// Creates the error for the page at `index` of `list`.
    public init(list: String, index: Int) {
        self.list = list
        self.index = index
    }

    public var description: String {
        "The server marked page \(index + 1) of \"\(list)\" no-store (sensitive data), so it was not cached; "
            + "pass --keep-no-store to cache it all the same"
    }
}
