import Foundation
import Slippers
import Testing

private struct Customer: Codable, Identifiable, CacheIdentifiable {
    let id: String
}

@Suite struct ItemKeyTests {
    @Test func stringIdentifiedModelsGiveAStringKey() {
        #expect(Customer(id: "cus_9s6XKzkNRiz8i3").itemKey == .string("cus_9s6XKzkNRiz8i3"))
    }

    @Test func decodesNumbersAndStrings() throws {
        #expect(try JsonProvider.decode(ItemKey.self, from: "12") == .integer(12))
        #expect(try JsonProvider.decode(ItemKey.self, from: #""a'b""#) == .string("a'b"))
        #expect(throws: DecodingError.self) { try JsonProvider.decode(ItemKey.self, from: "[1]") }
    }

    @Test func ordersIntegersBeforeStrings() {
        #expect(
            [ItemKey.string("b"), .integer(10), .string("a"), .integer(2)].sorted()
                == [.integer(2), .integer(10), .string("a"), .string("b")])
    }

    @Test func printsAsPlainText() {
        #expect(ItemKey.integer(3).description == "3")
        #expect(ItemKey.string("x").description == "x")
    }
}
