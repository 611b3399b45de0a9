import Foundation
import Testing

@testable import Slippers

@Suite struct JSONTapeTests {
    static func parse(_ text: String) -> JSONTape? {
        Data(text.utf8).withUnsafeBytes(JSONTape.parse)
    }

    @Test func aTapeFilledAgainHoldsOnlyTheLastDocument() throws {
        var tape = JSONTape()
        let documents = [#"{"a": [1, 2, {"b": null}], "c": "d"}"#, #"[true]"#, #"7"#, #"{"e": {}}"#]
        for document in documents {
            let filled = Data(document.utf8).withUnsafeBytes { tape.reparse($0) }
            #expect(filled)
            let alone = try #require(Self.parse(document))
            #expect(tape.entries.map(\.kind) == alone.entries.map(\.kind))
            #expect(tape.entries.map(\.end) == alone.entries.map(\.end))
        }
    }

    @Test func aRefusedDocumentLeavesTheTapeEmpty() {
        var tape = JSONTape()
        #expect(Data(#"{"a": 1}"#.utf8).withUnsafeBytes { tape.reparse($0) })
        for refused in [#"{"a": }"#, #"[1, 2"#, "", #""\ud800""#, "[1] x"] {
            #expect(!Data(refused.utf8).withUnsafeBytes { tape.reparse($0) })
            #expect(tape.entries.isEmpty)
            #expect(Self.parse(refused) == nil)
        }
    }
}
