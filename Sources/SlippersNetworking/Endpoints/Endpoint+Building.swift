import Foundation
import Slippers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Endpoint {
    /// The same endpoint with headers added, replacing headers of the same name.
    public func addingHeaders(_ headers: [String: String]) -> Endpoint {
        var copy = self
        copy.headers.merge(headers) { _, new in new }
        return copy
    }

    /// The same endpoint with `Accept: application/json`, and `Content-Type: application/json` when it has a body.
    public func addingJSONHeaders() -> Endpoint {
        var added = ["Accept": "application/json"]
        if body != .none { added["Content-Type"] = "application/json" }
        return addingHeaders(added)
    }

    /// The same endpoint with query items appended.
    public func addingQueryItems(_ items: [URLQueryItem]) -> Endpoint {
        var copy = self
        copy.queryItems += items
        return copy
    }

    /// The same endpoint with the query item `name` set to `value`, replacing any item of that name.
    public func settingQueryItem(_ name: String, to value: String?) -> Endpoint {
        var copy = self
        copy.queryItems.removeAll { $0.name == name }
        if let value { copy.queryItems.append(URLQueryItem(name: name, value: value)) }
        return copy
    }

    /// The same endpoint with a value encoded by `JsonProvider` as its body, and JSON headers.
    ///
    /// - throws: `EncodingError` when the value cannot be encoded.
    public func withJSONBody<Value: Encodable>(_ value: Value) throws -> Endpoint {
        var copy = self
        copy.body = .data(try JsonProvider.encode(value))
        return copy.addingJSONHeaders()
    }

    /// The same endpoint with a stubbed response; `always` stubs it even when the configuration does not.
    public func stubbed(_ response: StubResponse, always: Bool = false) -> Endpoint {
        var copy = self
        copy.stub = response
        copy.shouldStub = always
        return copy
    }

    /// The request for this endpoint under a configuration.
    ///
    /// A ``Body/file(_:)`` body is attached as a stream, so a large file is
    /// not read into memory.
    ///
    /// - throws: ``NetworkError`` of kind ``NetworkError/Kind/invalidURL(_:)``.
    package func urlRequest(in configuration: ServerConfiguration) throws -> URLRequest {
        var request = URLRequest(url: try configuration.url(path: path, queryItems: queryItems))
        request.httpMethod = method.rawValue
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        switch body {
        case .none:
            break
        case .data(let data):
            request.httpBody = data
        case .file(let url):
            guard let stream = InputStream(url: url) else {
                throw NetworkError(.invalidURL(url.lastPathComponent))
            }
            // No Content-Length: URLSession on Linux sends streams chunked, and
            // a Content-Length beside `Transfer-Encoding: chunked` confuses servers.
            request.httpBodyStream = stream
        }
        return request
    }
}
