import Foundation
import FuzzDriver
import SlippersNetworking

/// The fuzz target of the JSON page scanner: libFuzzer calls ``fuzzJSONScanner(_:_:)`` with each input.
@main
enum FuzzJSONScanner {
    static func main() { runFuzzer { start, count in fuzzJSONScanner(start, count) } }
}

/// One input: scans the input as a page body and walks everything the scanner found.
///
/// The scanner must throw or succeed on any bytes, and every value it reports must lie inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONScanner(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let scanner = try? JSONScanner(data) else { return 0 }
    walk(scanner.root, in: scanner, depth: 0)
    for path in [[], ["results"], ["data"], ["items"], ["data", "items"]] {
        _ = try? scanner.rawItems(at: path)
        _ = try? scanner.rawItems(at: path, idField: "uuid")
    }
    return 0
}

private func walk(_ value: JSONScanner.Value, in scanner: JSONScanner, depth: Int) {
    precondition(value.range.lowerBound >= 0 && value.range.upperBound <= scanner.bytes.count, "range outside input")
    guard depth < 64 else { return }
    _ = scanner.string(value)
    _ = scanner.int(value)
    _ = scanner.bool(value)
    _ = scanner.data(of: value)
    switch value.kind {
    case .object:
        for key in scanner.keys(of: value) {
            if let member = scanner.member(key, of: value) { walk(member, in: scanner, depth: depth + 1) }
        }
    case .array:
        for element in scanner.elements(of: value) { walk(element, in: scanner, depth: depth + 1) }
    default:
        break
    }
}
