import Foundation
import Slippers
import Testing

@testable import SlippersBench

/// The benchmark's slicer must hand the store exactly the bytes and ids the server sent.
@Suite struct ResponseSlicerTests {
    @Test func slicesEachItemOfAServerResponseAsItsOwnEncoding() throws {
        let workload = Workload(itemCount: 1_000)
        let items = try ResponseSlicer.items(in: workload.serverResponse(page: 3))
        let expected = workload.items(page: 3)
        #expect(items.map(\.key) == expected.map(\.itemKey))
        #expect(try items.map(\.json) == expected.map { try JsonProvider.encode($0) })
    }

    @Test func findsResultsAfterOtherKeysAndSkipsTrickyStrings() throws {
        let response = Data(
            #"""
            { "count": 2, "next": "a \"quoted\" ], {", "results" : [ {"title": "}{", "id": 7, "tags": [1, {"id": 9}]},
              {"id": -3} ] }
            """#.utf8)
        let items = try ResponseSlicer.items(in: response)
        #expect(items.map(\.key) == [.integer(7), .integer(-3)])
        #expect(String(decoding: items[0].json, as: UTF8.self) == #"{"title": "}{", "id": 7, "tags": [1, {"id": 9}]}"#)
    }

    @Test func aResponseWithoutResultsOrWithoutIdsIsAnError() {
        #expect(throws: ResponseSlicer.Failure.self) { try ResponseSlicer.items(in: Data(#"{"items": []}"#.utf8)) }
        #expect(throws: ResponseSlicer.Failure.self) {
            try ResponseSlicer.items(in: Data(#"{"results": [{"name": "x"}]}"#.utf8))
        }
        #expect(throws: ResponseSlicer.Failure.self) { try ResponseSlicer.items(in: Data(#"{"results": [{"id": 1"#.utf8)) }
    }
}
