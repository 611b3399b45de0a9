import Foundation
import FuzzDriver
import SlippersNetworking

/// The fuzz target of the pagination-style detection: libFuzzer calls ``fuzzStyleDetection(_:_:)`` with each input.
@main
enum FuzzStyleDetection {
    static func main() { runFuzzer { start, count in fuzzStyleDetection(start, count) } }
}

/// One input: detects the pagination style of a response made of the input.
///
/// The first line is the `Link` header, the rest the body. Detection must return a style for any
/// response, the same each time, and that style must survive the JSON round trip the cache stores it through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStyleDetection(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    let link = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Data(bytes[min(newline + 1, bytes.count)...])
    let headers = link.isEmpty ? [:] : ["Link": link]
    for url in urls {
        let detection = PaginationStyle.explain(url: url, body: body, headers: headers)
        let style = detection.style
        let again = PaginationStyle.explain(url: url, body: body, headers: headers).style
        precondition(style == again, "detection is not pure")
        if let encoded = try? JSONEncoder().encode(style) {
            let decoded = try? JSONDecoder().decode(PaginationStyle.self, from: encoded)
            precondition(decoded == style, "a detected style does not survive its JSON round trip")
        }
    }
    return 0
}

private let urls = [
    URL(string: "https://api.example.com/v1/posts")!,
    URL(string: "https://api.example.com/posts?page=2&per_page=20&limit=5&offset=10&cursor=abc")!,
]
