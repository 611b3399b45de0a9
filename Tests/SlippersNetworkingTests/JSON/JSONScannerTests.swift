import Foundation
import Slippers
import SlippersNetworking
import Testing

@Suite struct JSONScannerTests {
    private func scanner(_ text: String) throws -> JSONScanner { try JSONScanner(Data(text.utf8)) }

    @Test func itemsOfABareArrayKeepTheirBytesExactly() throws {
        let text = #"[ {"id": 1, "title": "a\"b"} ,{"title":"x","id":2}]"#
        let items = try scanner(text).rawItems(at: [])
        #expect(items.map(\.key) == [.integer(1), .integer(2)])
        #expect(String(decoding: items[0].json, as: UTF8.self) == #"{"id": 1, "title": "a\"b"}"#)
        #expect(String(decoding: items[1].json, as: UTF8.self) == #"{"title":"x","id":2}"#)
    }

    @Test func itemsUnderANestedKeyPathAreFound() throws {
        let text = #"{"meta": {"items": 3}, "data": {"total": 2, "items": [{"id": "cus_9s"}, {"id": -4}]}}"#
        let items = try scanner(text).rawItems(at: ["data", "items"])
        #expect(items.map(\.key) == [.string("cus_9s"), .integer(-4)])
    }

    @Test func aConfigurableIdFieldIsRead() throws {
        let items = try scanner(#"{"rows": [{"id": 9, "uuid": "a-1"}]}"#).rawItems(at: ["rows"], idField: "uuid")
        #expect(items.first?.key == .string("a-1"))
    }

    @Test func escapedStringsAreDecoded() throws {
        let s = try scanner(#"{"k\u0065y": "caf\u00e9 \ud83d\ude00 \n\/"}"#)
        #expect(s.string(at: ["key"]) == "café 😀 \n/")
    }

    @Test func scalarsAreReadByKeyPath() throws {
        let s = try scanner(#"{"a": {"b": 42, "c": true, "d": null, "e": "17", "f": 1.5}}"#)
        #expect(s.int(at: ["a", "b"]) == 42)
        #expect(s.bool(at: ["a", "c"]) == true)
        #expect(s.string(at: ["a", "d"]) == nil)
        #expect(s.int(at: ["a", "e"]) == 17)
        #expect(s.int(at: ["a", "f"]) == nil)
        #expect(s.value(at: ["a", "missing"]) == nil)
        #expect(s.keys(of: s.root) == ["a"])
    }

    @Test func aMissingIdNamesTheItemIndex() throws {
        let error = #expect(throws: JSONScanner.ScanError.self) {
            try scanner(#"{"results": [{"id": 1}, {"name": "x"}]}"#).rawItems(at: ["results"])
        }
        #expect(error?.reason.contains("item 1") == true)
        #expect(error?.path == "results[1]")
    }

    @Test func anIdThatIsNeitherIntegerNorStringIsAnError() throws {
        #expect(throws: JSONScanner.ScanError.self) {
            try scanner(#"[{"id": 1.5}]"#).rawItems(at: [])
        }
        #expect(throws: JSONScanner.ScanError.self) {
            try scanner(#"[{"id": {"v": 1}}]"#).rawItems(at: [])
        }
    }

    @Test func aMissingItemsArrayIsAnError() throws {
        #expect(throws: JSONScanner.ScanError.self) { try scanner(#"{"data": []}"#).rawItems(at: ["results"]) }
        #expect(throws: JSONScanner.ScanError.self) { try scanner(#"{"results": {}}"#).rawItems(at: ["results"]) }
    }

    @Test(arguments: [
        #"{"results": [{"id": 1}, {"id": 2"#, #"[{"id": 1},"#, #"{"a": "unterminated"#, #"{"a" 1}"#, "",
        #"[1, 2] x"#, #"{"a": tru}"#, #"[{"id": 1}]]"#, "[\"\u{01}\"]", String(repeating: "[", count: 1000),
    ])
    func malformedOrTruncatedJSONThrowsInsteadOfCrashing(text: String) {
        #expect(throws: JSONScanner.ScanError.self) { try JSONScanner(Data(text.utf8)) }
    }

    @Test func everyTruncationOfAPageIsRejected() throws {
        let text = #"{"results": [{"id": 1, "t": "a"}, {"id": 2, "n": [1, 2.5e3, null]}], "next": null}"#
        let bytes = Array(text.utf8)
        for length in 0..<bytes.count {
            #expect(throws: JSONScanner.ScanError.self) { try JSONScanner(Data(bytes[..<length])) }
        }
        #expect(try JSONScanner(Data(bytes)).rawItems(at: ["results"]).count == 2)
    }

    @Test func escapedQuotesAndBackslashesInsideItemsAreSkippedCorrectly() throws {
        let text = #"{"results": [{"t": "x\\", "id": 1}, {"t": "q\"uote\\\"", "n": {"k": "]}"}, "id": 2}]}"#
        let items = try scanner(text).rawItems(at: ["results"])
        #expect(items.map(\.key) == [.integer(1), .integer(2)])
        #expect(String(decoding: items[1].json, as: UTF8.self) == #"{"t": "q\"uote\\\"", "n": {"k": "]}"}, "id": 2}"#)
    }

    @Test func randomlyDamagedPagesNeverCrashTheScanner() {
        let page = Array(
            #"{"results": [{"id": 1, "t": "a\"b", "n": [1, -2.5e3, true, null]}, {"id": "x", "o": {}}], "next": "u"}"#
                .utf8)
        var state: UInt64 = 0x1234_5678
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array(#"{}[]",:\ 0123456789-.eEtrufalsn"#.utf8)
        for _ in 0..<3_000 {
            var damaged = page
            for _ in 0...random(3) {
                let position = random(damaged.count)
                switch random(3) {
                case 0: damaged[position] = alphabet[random(alphabet.count)]
                case 1: damaged.remove(at: position)
                default: damaged.insert(alphabet[random(alphabet.count)], at: position)
                }
            }
            if let scanner = try? JSONScanner(Data(damaged)) {
                _ = try? scanner.rawItems(at: ["results"])
                _ = scanner.string(at: ["next"])
                _ = scanner.keys(of: scanner.root)
            }
        }
    }

    @Test func aByteOrderMarkBeforeTheJSONIsSkipped() throws {
        let scanner = try JSONScanner(Data([0xEF, 0xBB, 0xBF]) + Data(#"[{"id": 1}]"#.utf8))
        let items = try scanner.rawItems(at: [])
        #expect(items.map(\.key) == [.integer(1)])
        #expect(String(decoding: items[0].json, as: UTF8.self) == #"{"id": 1}"#)
    }

    @Test func invalidUTF8IsRejectedWithItsOffset() {
        let body = Data(#"[{"id": 1, "t": ""#.utf8) + Data([0xE9]) + Data(#""}]"#.utf8)
        let error = #expect(throws: JSONScanner.ScanError.self) { try JSONScanner(body) }
        #expect(error?.reason == "the body is not valid UTF-8 at byte 17")
        #expect(error?.isTruncated == false)
    }

    @Test(arguments: [1, 2, 3])
    func aBodyCutInsideACharacterIsTruncatedNotInvalidUTF8(kept: Int) {
        // "€" is E2 82 AC, "😀" F0 9F 98 80: the cut leaves the first bytes of one of them.
        let character: [UInt8] = kept == 3 ? [0xF0, 0x9F, 0x98, 0x80] : [0xE2, 0x82, 0xAC]
        let body = Data(#"{"results": [{"id": 1, "t": "ab"#.utf8) + Data(character.prefix(kept))
        let error = #expect(throws: JSONScanner.ScanError.self) { try JSONScanner(body) }
        #expect(error?.isTruncated == true, "\(String(describing: error))")
    }

    @Test func jsonCutShortIsTruncatedAndMalformedJSONIsNot() {
        let cut = #expect(throws: JSONScanner.ScanError.self) { try JSONScanner(Data(#"{"results": [{"id": 1"#.utf8)) }
        #expect(cut?.isTruncated == true)
        let malformed = #expect(throws: JSONScanner.ScanError.self) { try JSONScanner(Data(#"{"results": ]}"#.utf8)) }
        #expect(malformed?.isTruncated == false)
    }

    @Test func anIDBeyondSixtyFourBitsIsNamedAsSuch() throws {
        let scanner = try JSONScanner(Data(#"[{"id": 9223372036854775807}, {"id": 9223372036854775808}]"#.utf8))
        let error = #expect(throws: JSONScanner.ScanError.self) { try scanner.rawItems(at: []) }
        #expect(error?.reason.contains("9223372036854775808, a whole number outside the 64-bit range") == true)
        let fraction = try JSONScanner(Data(#"[{"id": 1.5}]"#.utf8))
        let other = #expect(throws: JSONScanner.ScanError.self) { try fraction.rawItems(at: []) }
        #expect(other?.reason.contains("neither an integer nor a string") == true)
    }
}
