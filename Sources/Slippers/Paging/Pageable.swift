/// Something that loads its content one page at a time.
public protocol Pageable: AnyObject, Sendable {
    /// Moves to the page after the current one and fetches it.
    func nextPage()

    /// Fetches the current page (again).
    func fetchPage()
}
