import ArgumentParser
import Foundation

/// An HTTP header given on the command line as `Name: value`.
///
/// Its value is sent with every request and never written anywhere: not to
/// the database, not in a message. (It is parsed here rather than as an
/// `ExpressibleByArgument`, whose error message would repeat the value.)
struct HeaderArgument: Equatable {
    /// The header's name, such as `Authorization`.
    var name: String
    /// The header's value.
    var value: String

    init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses `Name: value`; `nil` when there is no colon or the name is not a header name.
    init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":") else { return nil }
        let name = argument[..<colon].trimmingCharacters(in: .whitespaces)
        let value = argument[argument.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        // A token is the RFC 9110 name syntax: visible characters, no separators.
        let separators = Set("()<>@,;:\\\"/[]?={} \t")
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && !$0.isWhitespace && !separators.contains($0) })
        else { return nil }
        self.name = name
        self.value = value
    }

    /// The `--header` arguments by name; a value is never echoed in an error.
    ///
    /// - throws: A `ValidationError` naming the position of an argument that is not `Name: value`.
    static func parse(_ arguments: [String]) throws -> [String: String] {
        var parsed: [String: String] = [:]
        for (position, text) in arguments.enumerated() {
            guard let header = HeaderArgument(argument: text) else {
                throw ValidationError("--header takes 'Name: value'; header \(position + 1) is not of that form.")
            }
            parsed[header.name] = header.value
        }
        return parsed
    }
}
