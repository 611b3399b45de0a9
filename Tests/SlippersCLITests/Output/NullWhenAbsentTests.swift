import Foundation
import Testing

@testable import SlippersCLI

@Suite struct NullWhenAbsentTests {
    private struct Record: Encodable {
        @NullWhenAbsent var absent: String?
        @NullWhenAbsent var present: Int?
    }

    @Test func anAbsentValueIsWrittenAsNullAndAPresentOneAsItself() throws {
        let json =
            try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(Record(absent: nil, present: 3))) as? [String: Any]
        #expect(json?["absent"] is NSNull)
        #expect(json?["present"] as? Int == 3)
    }
}
