/// Where a load of a ``Pager`` stands: the first page's (refresh) or a later page's (append).
public enum LoadState: Sendable {
    /// No load is running and the last one succeeded (or none ran).
    case idle
    /// A load is running.
    case loading
    /// The last load failed with this error; what was published before stays published.
    case failed(any Error)

    /// Whether a load is running.
    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The error of the last load, when it failed.
    public var error: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

extension LoadState: Equatable {
    /// Whether two load states are the same: both idle, both loading, or both failed with
    /// errors of one type and one description (errors themselves are not `Equatable`).
    public static func == (lhs: LoadState, rhs: LoadState) -> Bool {
        switch (lhs, rhs) {
        case (.idle, .idle), (.loading, .loading): true
        case (.failed(let left), .failed(let right)):
            type(of: left) == type(of: right) && String(describing: left) == String(describing: right)
        default: false
        }
    }
}

extension LoadState: CustomStringConvertible {
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .failed(let error): "failed: \(error)"
        }
    }
}
