import Foundation
import FuzzDriver
import SlippersNetworking

/// The fuzz target of the `Link` header parser: libFuzzer calls ``fuzzLinkHeader(_:_:)`` with each input.
@main
enum FuzzLinkHeader {
    static func main() { runFuzzer { start, count in fuzzLinkHeader(start, count) } }
}

/// One input: parses the input as an RFC 8288 `Link` header value.
///
/// Any text parses (to no link at worst); every link found has a target and the lookups never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLinkHeader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let header = LinkHeader(text)
    for link in header.links {
        _ = link.relations
        _ = link.parameters
    }
    for relation in ["next", "prev", "last", "first", "NEXT"] { _ = header.url(rel: relation) }
    return 0
}
