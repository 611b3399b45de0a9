import ArgumentParser
import SlippersNetworking

/// Which other origins `sync` may follow a list to, and which of them get the `--header` values.
struct OriginOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp(
            "Follow next pages and redirects to this origin (scheme://host[:port]), without the --header "
                + "values; repeatable. Other origins are refused.",
            valueName: "origin"))
    var allowed: [String] = []

    @Option(
        name: .customLong("trust-origin"),
        help: ArgumentHelp(
            "Follow next pages and redirects to this origin and send it the --header values too, "
                + "like curl's --location-trusted; repeatable.",
            valueName: "origin"))
    var trusted: [String] = []

    func validate() throws {
        _ = try policy()
    }

    /// The policy the options describe.
    ///
    /// - throws: `ValidationError` naming the option whose value is not an origin.
    func policy() throws -> OriginPolicy {
        let allowed = try Self.origins(allowed, option: "--allow-origin")
        let trusted = try Self.origins(trusted, option: "--trust-origin")
        return OriginPolicy(allowed: allowed.union(trusted), trusted: trusted)
    }

    private static func origins(_ texts: [String], option: String) throws -> Set<Origin> {
        try Set(
            texts.map { text in
                guard let origin = Origin(parsing: text), origin.scheme == "http" || origin.scheme == "https" else {
                    throw ValidationError("\(option) takes an origin such as https://api.example.com:8443.")
                }
                return origin
            })
    }
}
