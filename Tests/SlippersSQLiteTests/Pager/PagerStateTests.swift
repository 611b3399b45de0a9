import Foundation
import Slippers
import SlippersSQLite
import Testing

@Suite struct PagerStateTests {
    private typealias State = Pager<ScriptedSource.Post>.State

    private func state(items: Int, total: Int?, endReached: Bool) throws -> State {
        var state = State()
        state.items = try (1...items).map {
            try JSONDecoder().decode(ScriptedSource.Post.self, from: Data(#"{"id": \#($0), "title": "t"}"#.utf8))
        }
        state.total = total
        state.endReached = endReached
        return state
    }

    @Test func aListEndedShortOfItsAnnouncedTotalIsIncomplete() throws {
        #expect(try state(items: 10, total: 25, endReached: true).isIncomplete)
        #expect(try !state(items: 25, total: 25, endReached: true).isIncomplete)
        #expect(try !state(items: 30, total: 25, endReached: true).isIncomplete)
        // Not at its end yet, or no total announced: nothing to say.
        #expect(try !state(items: 10, total: 25, endReached: false).isIncomplete)
        #expect(try !state(items: 10, total: nil, endReached: true).isIncomplete)
    }
}
