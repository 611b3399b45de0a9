import Slippers

/// Why the fleet does not sync a list: its request, or a walk another worker started otherwise.
///
/// A struct over a code, so that a new reason is not a breaking change; its ``description`` is
/// one line a user can act on.
public struct FleetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable {
        private let name: String

        /// A queued list's stored `sync` options could not be made a ``SyncRequest``.
        public static let unconvertibleOptions = Code(name: "unconvertibleOptions")
        /// The list was started meanwhile by a worker asking for its pages otherwise.
        public static let pagedOtherwiseMeanwhile = Code(name: "pagedOtherwiseMeanwhile")
    }

    /// The kind of failure.
    package let code: Code
    /// The failure's one line.
    public let description: String

    /// A queued list's stored `sync` options could not be made a request, for `reason`.
    public static func unconvertibleOptions(_ options: [String], reason: String) -> FleetError {
        FleetError(
            code: .unconvertibleOptions,
            description: "The list's queued options (\(options.joined(separator: " ").shortenedForErrors)) are not a "
                + "sync request's: \(reason); enqueue it again")
    }

    /// The list `list` was started meanwhile by a worker asking for its pages otherwise
    /// (another page size or style): resuming it this way would mix the two.
    public static func pagedOtherwiseMeanwhile(list: String) -> FleetError {
        FleetError(
            code: .pagedOtherwiseMeanwhile,
            description: "\"\(CredentialQuery.masking(list).shortenedForErrors)\" was started meanwhile by "
                + "another worker asking for its pages otherwise (another page size or style); run again to resume "
                + "it as that worker paged it, or add --refresh to start it again your way")
    }
}
