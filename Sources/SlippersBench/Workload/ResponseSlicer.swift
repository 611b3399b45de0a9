import Foundation
import Slippers

/// Cuts each item's bytes and id out of a server response, without decoding the items.
///
/// This is the benchmark's own stand-in for the HTTP page source's slicing,
/// until SlippersNetworking's scanner is on the branch: it finds the array
/// under `"results"` at the top level, then each element's byte range and its
/// top-level `"id"` number. It walks every byte once, tracking strings (with
/// escapes) and nesting, which is the work any slicer must do. It trusts
/// well-formed input: the benchmark's responses come from `JSONEncoder`.
enum ResponseSlicer {
    /// The slicer met something it does not expect in a benchmark response.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The items of `response`'s `results` array, each as its bytes and integer id.
    static func items(in response: Data) throws -> [RawItem] {
        try response.withUnsafeBytes { buffer in
            let bytes = buffer.bindMemory(to: UInt8.self)
            guard let start = try arrayStart(ofKey: Array("\"results\"".utf8), in: bytes) else {
                throw Failure(description: "no \"results\" array at the top level")
            }
            var items: [RawItem] = []
            var index = start + 1
            while true {
                skipWhitespace(bytes, &index)
                guard index < bytes.count else { throw Failure(description: "truncated results array") }
                if bytes[index] == UInt8(ascii: "]") { break }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                let itemStart = index
                let id = try skipObject(bytes, &index)
                guard let id else { throw Failure(description: "an item without an integer \"id\"") }
                items.append(RawItem(key: .integer(id), json: Data(bytes: bytes.baseAddress! + itemStart, count: index - itemStart)))
            }
            return items
        }
    }

    /// The offset of the `[` that opens the array under `key` in the top-level object.
    private static func arrayStart(ofKey key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) throws -> Int? {
        var index = 0
        skipWhitespace(bytes, &index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while index < bytes.count {
            skipWhitespace(bytes, &index)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "}") { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let keyStart = index
            try skipString(bytes, &index)
            let matches = bytes[keyStart..<index].elementsEqual(key)
            skipWhitespace(bytes, &index)
            index += 1  // the colon
            skipWhitespace(bytes, &index)
            if matches, index < bytes.count, bytes[index] == UInt8(ascii: "[") { return index }
            try skipValue(bytes, &index)
        }
        return nil
    }

    /// Skips the object at `index` and returns its top-level `"id"` when it is an integer.
    private static func skipObject(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws -> Int? {
        guard bytes[index] == UInt8(ascii: "{") else { throw Failure(description: "an item that is not an object") }
        index += 1
        var id: Int?
        while index < bytes.count {
            skipWhitespace(bytes, &index)
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return id
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let keyStart = index
            try skipString(bytes, &index)
            let isID = index - keyStart == 4 && bytes[keyStart + 1] == UInt8(ascii: "i")
                && bytes[keyStart + 2] == UInt8(ascii: "d")
            skipWhitespace(bytes, &index)
            index += 1  // the colon
            skipWhitespace(bytes, &index)
            if isID { id = integer(bytes, at: index) }
            try skipValue(bytes, &index)
        }
        throw Failure(description: "truncated item")
    }

    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        var index = start
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value = 0
        let digitsStart = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > digitsStart ? (negative ? -value : value) : nil
    }

    /// Skips any JSON value: strings with their escapes, nested objects and arrays, literals.
    private static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws {
        guard index < bytes.count else { throw Failure(description: "truncated value") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            try skipString(bytes, &index)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    try skipString(bytes, &index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return
                    }
                default:
                    break
                }
                index += 1
            }
            throw Failure(description: "truncated object or array")
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"),
                    UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    return
                default:
                    index += 1
                }
            }
        }
    }

    private static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws {
        guard bytes[index] == UInt8(ascii: "\"") else { throw Failure(description: "expected a string") }
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return
            default: index += 1
            }
        }
        throw Failure(description: "truncated string")
    }

    private static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }
}
