extension String {
    /// The most characters of a URL, token or key that an error line keeps.
    package static let errorTextLength = 200

    /// The text cut to at most ``errorTextLength`` characters, with `…` where it was cut,
    /// so that an error about a huge URL or token stays one readable line.
    package var shortenedForErrors: String {
        count > Self.errorTextLength ? String(prefix(Self.errorTextLength - 1)) + "…" : self
    }
}
