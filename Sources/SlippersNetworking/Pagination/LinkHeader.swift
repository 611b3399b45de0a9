import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The links of an RFC 8288 `Link` header.
///
/// One header may hold several links separated by commas, and parameters may
/// be quoted (with commas or semicolons inside the quotes); `rel` may name
/// several relations separated by spaces.
///
/// For example:
///
/// ```swift
/// let links = LinkHeader(#"<https://api.example.com/items?page=2>; rel="next", <…?page=9>; rel="last""#)
/// links.url(rel: "next")  // "https://api.example.com/items?page=2"
/// ```
public struct LinkHeader: Sendable, Equatable {
    /// One link: its target and its parameters.
    public struct Link: Sendable, Equatable {
        /// The target, as written between `<` and `>`.
        public var target: String
        /// The parameters, names lowercased, values unquoted.
        public var parameters: [String: String]

        /// The relations named by `rel`, lowercased.
        public var relations: [String] {
            (parameters["rel"] ?? "").lowercased().split(separator: " ").map(String.init)
        }
    }

    /// The links in the order of the header.
    public var links: [Link]

    /// Parses a `Link` header value; malformed parts are skipped.
    public init(_ value: String) {
        links = []
        var scalars = Substring(value).unicodeScalars[...]
        while let open = scalars.firstIndex(of: "<") {
            scalars = scalars[scalars.index(after: open)...]
            guard let close = scalars.firstIndex(of: ">") else { return }
            let target = String(String.UnicodeScalarView(scalars[..<close]))
            scalars = scalars[scalars.index(after: close)...]
            var parameters: [String: String] = [:]
            // Parameters run until a comma outside quotes.
            while let first = scalars.first, first != "," {
                if first == ";" || first == " " || first == "\t" {
                    scalars = scalars.dropFirst()
                    continue
                }
                var name = ""
                while let scalar = scalars.first, scalar != "=", scalar != ";", scalar != "," {
                    name.unicodeScalars.append(scalar)
                    scalars = scalars.dropFirst()
                }
                var parameterValue = ""
                if scalars.first == "=" {
                    scalars = scalars.dropFirst()
                    while scalars.first == " " { scalars = scalars.dropFirst() }
                    if scalars.first == "\"" {
                        scalars = scalars.dropFirst()
                        while let scalar = scalars.first, scalar != "\"" {
                            if scalar == "\\" { scalars = scalars.dropFirst() }
                            if let escaped = scalars.first { parameterValue.unicodeScalars.append(escaped) }
                            scalars = scalars.dropFirst()
                        }
                        scalars = scalars.dropFirst()
                    } else {
                        while let scalar = scalars.first, scalar != ";", scalar != "," {
                            parameterValue.unicodeScalars.append(scalar)
                            scalars = scalars.dropFirst()
                        }
                    }
                }
                let key = name.trimmingSpaces().lowercased()
                if !key.isEmpty, parameters[key] == nil { parameters[key] = parameterValue.trimmingSpaces() }
            }
            links.append(Link(target: target.trimmingSpaces(), parameters: parameters))
            scalars = scalars.dropFirst()
        }
    }

    /// The target of the first link with a relation, such as `next`, that does not say its page is
    /// empty: a link with `results="false"` names a page with nothing on it (servers that always
    /// send `rel="next"` say so), and is no link to follow.
    public func url(rel: String) -> String? {
        let rel = rel.lowercased()
        return links.first { link in
            link.relations.contains(rel) && link.parameters["results"]?.lowercased() != "false"
        }?.target
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
