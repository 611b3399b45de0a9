/// A statement whose SQL depends on a number of keys or rows (`IN (?, ?, …)`, `VALUES (…), (…)`),
/// kept made for the number a full chunk has, so that a page's statements are not written anew each time.
struct SQLForCount: Sendable {
    /// The number whose SQL is kept.
    let usual: Int
    private let make: @Sendable (Int) -> String
    private let made: String

    /// The SQL of `make` for any number, kept for `usual`.
    init(usual: Int, _ make: @escaping @Sendable (Int) -> String) {
        self.usual = usual
        self.make = make
        made = make(usual)
    }

    /// The SQL for `count` keys or rows.
    func callAsFunction(_ count: Int) -> String { count == usual ? made : make(count) }
}
