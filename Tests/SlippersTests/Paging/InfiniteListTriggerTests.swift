import Slippers
import Testing

@Suite struct InfiniteListTriggerTests {
    @Test func asksOnceWhenTheRowCrossesTheThresholdOfTheLastLoadedPage() {
        let counter = Counter()
        let trigger = InfiniteListTrigger(pageSize: 20, distanceFromEnd: 5) { counter.increment() }
        for row in 0..<15 { trigger.rowDisplayed(row) }
        #expect(counter.count == 0)
        trigger.rowDisplayed(15)
        #expect(counter.count == 1)
        for row in 15..<35 { trigger.rowDisplayed(row) }
        #expect(counter.count == 1)
        trigger.rowDisplayed(35)
        #expect(counter.count == 2)
        #expect(trigger.pagesAskedFor == 3)
    }

    @Test func scrollingBackDoesNotAskAgain() {
        let counter = Counter()
        let trigger = InfiniteListTrigger(pageSize: 10, distanceFromEnd: 0) { counter.increment() }
        trigger.rowDisplayed(10)
        trigger.rowDisplayed(3)
        trigger.rowDisplayed(10)
        #expect(counter.count == 1)
    }

    @Test func resetStartsCountingAgainAfterARefresh() {
        let counter = Counter()
        let trigger = InfiniteListTrigger(pageSize: 10, distanceFromEnd: 2) { counter.increment() }
        trigger.rowDisplayed(8)
        trigger.reset()
        trigger.rowDisplayed(8)
        #expect(counter.count == 2)
    }

    @Test func theFunctionFormBehavesTheSame() {
        let counter = Counter()
        let rowDisplayed = InfiniteListTrigger.make(pageSize: 5, distanceFromEnd: 1) { counter.increment() }
        for row in 0..<10 { rowDisplayed(row) }
        #expect(counter.count == 2)
    }
}
