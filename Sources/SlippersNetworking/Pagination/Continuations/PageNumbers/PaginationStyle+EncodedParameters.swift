import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension PaginationStyle {
    /// How a list pages by members of an object encoded in one query parameter, as detection
    /// reads it from the first page's URL: `?q=(page:0,page_size:100)` (rison) or
    /// `?q={"page":1,"per_page":20}` (JSON).
    public struct EncodedPaging: Sendable, Hashable {
        /// The way of asking: ``Kind/pageNumber(parameter:firstPage:)`` or ``Kind/offset(parameter:)``,
        /// its parameter named `q.page` (the query parameter, a dot, the member).
        public var kind: Kind
        /// The member that sets the page size, named as `q.page_size`; `nil` when the object has none.
        var pageSizeParameter: String?
        /// The page size the URL asks for.
        var pageSize: Int?
        /// What was read, in words.
        package var reason: String
    }

    /// The members of an encoded object that number pages: the page parameters' names.
    static let encodedPageMembers = pageParameters
    /// The members of an encoded object that give an offset.
    static let encodedOffsetMembers = ["offset", "skip", "start", "_start", "from"]

    /// The paging a URL carries inside an encoded query parameter: the first parameter whose
    /// value is a rison or JSON object with an integer page number (`page`, `page_number`…) or
    /// offset (`offset`, `skip`, `start`…); `nil` when none has. Pages count from 0 when the
    /// URL asks for page 0.
    ///
    /// For example, `?q=(order_column:name,page:0,page_size:100)` pages by `q.page` from 0,
    /// its size in `q.page_size`.
    public static func encodedPaging(in url: URL) -> EncodedPaging? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        for item in items {
            guard let text = item.value, let object = EncodedQueryObject(text) else { continue }
            let size = pageSizeParameters.first { object[$0]?.integer != nil }
            let sizeParameter = size.map { "\(item.name).\($0)" }
            let pageSize = size.flatMap { object[$0]?.integer }
            let notation = object.notation == .rison ? "rison" : "JSON"
            if let member = encodedPageMembers.first(where: { object[$0]?.integer != nil }),
                let number = object[member]?.integer
            {
                return EncodedPaging(
                    kind: .pageNumber(parameter: "\(item.name).\(member)", firstPage: number == 0 ? 0 : 1),
                    pageSizeParameter: sizeParameter, pageSize: pageSize,
                    reason: "page \(number) at \(member) in the \(notation) object of ?\(item.name)=, asked for as "
                        + "\(item.name).\(member)" + (sizeParameter.map { ", its size at \($0)" } ?? ""))
            }
            if let member = encodedOffsetMembers.first(where: { object[$0]?.integer != nil }) {
                return EncodedPaging(
                    kind: .offset(parameter: "\(item.name).\(member)"), pageSizeParameter: sizeParameter,
                    pageSize: pageSize,
                    reason: "an offset at \(member) in the \(notation) object of ?\(item.name)=, asked for as "
                        + "\(item.name).\(member)" + (sizeParameter.map { ", its size at \($0)" } ?? ""))
            }
        }
        return nil
    }
}

extension HTTPPageSource {
    /// Sets `values` in a URL's query: a name such as `q.page`, whose `q` is a query parameter
    /// holding a rison or JSON object, sets the member `page` of that object, written back in its
    /// notation with its other members unchanged; any other name sets a parameter, replacing one
    /// of that name, new ones added in the order of their names.
    ///
    /// A name such as `q.page` whose `q` the URL does not hold (nor `q.page` itself) creates it:
    /// a rison object of the members named so (`?q=(page:1,page_size:20)`), added after the
    /// other parameters. Rison, since no other notation is implied.
    ///
    /// An encoded object is read and written as a form encodes it: a `+` in the URL is a space,
    /// and a `+` of the object's text is sent as `%2B`, so that a string member holding one (a
    /// filter's `a+b`) reaches the server as it was.
    static func setQueryItems(_ values: [String: String], in components: inout URLComponents) {
        var encoded = components.percentEncodedQueryItems ?? []
        var changed: [String: String] = [:]
        var plain: [String: String] = [:]
        var created: [(name: String, object: EncodedQueryObject)] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            let encodedValue: EncodedQueryObject.Value = Int(value).map { .number(String($0)) } ?? .string(value)
            guard let dot = name.firstIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex
            else {
                plain[name] = value
                continue
            }
            let member = String(name[name.index(after: dot)...])
            guard let index = encoded.firstIndex(where: { $0.name == name[..<dot] }) else {
                if encoded.contains(where: { $0.name == name }) {
                    plain[name] = value
                } else if let existing = created.firstIndex(where: { $0.name == name[..<dot] }) {
                    created[existing].object.set(encodedValue, for: member)
                } else {
                    var object = EncodedQueryObject(notation: .rison)
                    object.set(encodedValue, for: member)
                    created.append((String(name[..<dot]), object))
                }
                continue
            }
            guard let raw = encoded[index].value,
                let text = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                var object = EncodedQueryObject(text)
            else {
                plain[name] = value
                continue
            }
            object.set(encodedValue, for: member)
            let written = object.text.addingPercentEncoding(withAllowedCharacters: formValueCharacters) ?? raw
            encoded[index].value = written
            changed[encoded[index].name] = written
        }
        if !plain.isEmpty {
            var items = (components.queryItems ?? []).filter { plain[$0.name] == nil }
            for (name, value) in plain.sorted(by: { $0.key < $1.key }) {
                items.append(URLQueryItem(name: name, value: value))
            }
            components.queryItems = items
        }
        guard !changed.isEmpty || !created.isEmpty else { return }
        var current = components.percentEncodedQueryItems ?? []
        for index in current.indices {
            if let written = changed[current[index].name] { current[index].value = written }
        }
        for (name, object) in created {
            let written = object.text.addingPercentEncoding(withAllowedCharacters: formValueCharacters) ?? object.text
            current.append(URLQueryItem(name: name, value: written))
        }
        components.percentEncodedQueryItems = current
    }

    /// The characters a query value holds as they are: those of a query, less the ones a form
    /// reads as separators (`&`, `=`, `#`) or as a space (`+`).
    private static let formValueCharacters: CharacterSet = {
        var characters = CharacterSet.urlQueryAllowed
        characters.remove(charactersIn: "+&=#")
        return characters
    }()
}
