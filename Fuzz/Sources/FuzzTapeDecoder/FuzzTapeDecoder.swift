import Foundation
import FuzzDriver
import Slippers

@testable import SlippersSQLite

/// The fuzz target of the cache's tape decoder: libFuzzer calls ``fuzzTapeDecoder(_:_:)`` with each input.
@main
enum FuzzTapeDecoder {
    static func main() { runFuzzer { start, count in fuzzTapeDecoder(start, count) } }
}

/// One input: decodes the input with the cache's tape decoder and with `JSONDecoder`.
///
/// The tape decoder may decline (then the cache asks `JSONDecoder`), but what it decodes must be
/// exactly what `JsonProvider`'s `JSONDecoder` decodes from the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTapeDecoder(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    check(Sample.self, data)
    check([Sample].self, data)
    check([String: Int].self, data)
    check([Int?].self, data)
    _ = try? [RawItem(key: .integer(1), json: data)].decoded(as: Sample.self)
    return 0
}

private func check<T: Decodable & Equatable>(_ type: T.Type, _ data: Data) {
    guard let tape = TapeDecoder.decode(type, from: data) else { return }
    let reference = try? JsonProvider.decoder.decode(type, from: data)
    precondition(reference == tape, "the tape decoder and JSONDecoder disagree")
}

/// A value with the shapes an API item has: nested objects, optionals, arrays, numbers, strings, dates.
private struct Sample: Decodable, Equatable {
    struct Author: Decodable, Equatable {
        var id: Int
        var displayName: String?
    }

    var id: Int
    var title: String?
    var score: Double?
    var isPublished: Bool?
    var tags: [String]?
    var author: Author?
    var createdAt: Date?
    var count: Int64?
    var ratio: UInt8?
}
