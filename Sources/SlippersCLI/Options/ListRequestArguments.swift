import ArgumentParser
import Foundation
import Slippers

/// A command that asks a list's URL with headers the user gives: `sync` and `detect`.
protocol ListRequestArguments {
    /// The URL of the list's first page, as typed.
    var url: String { get }
    /// The `--header` arguments, as typed.
    var headers: [String] { get }
}

extension ListRequestArguments {
    /// The URL, if it is an http or https URL with a host.
    func parsedURL() throws -> URL {
        guard let url = URL(string: url), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { throw invalidURL() }
        return url
    }

    /// The error for a URL that is not one a list can be asked at.
    func invalidURL() -> ValidationError {
        ValidationError("Not an http or https URL: \(url.shortenedForErrors)")
    }

    /// The headers by name; the values are never echoed in an error.
    func parsedHeaders() throws -> [String: String] {
        try HeaderArgument.parse(headers)
    }
}
