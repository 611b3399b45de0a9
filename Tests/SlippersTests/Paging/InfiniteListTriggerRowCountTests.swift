import Slippers
import Testing

/// The trigger for pages of any size: driven by the number of rows shown.
@Suite struct InfiniteListTriggerRowCountTests {
    @Test func asksOnceNearTheEndOfTheRowsShownAndAgainOnlyWhenMoreRowsAreShown() {
        let counter = Counter()
        let trigger = InfiniteListTrigger(distanceFromEnd: 3) { counter.increment() }
        trigger.rowDisplayed(5, of: 10)
        #expect(counter.count == 0)
        trigger.rowDisplayed(7, of: 10)
        trigger.rowDisplayed(8, of: 10)
        trigger.rowDisplayed(9, of: 10)
        #expect(counter.count == 1)
        // Pages of another size: 17 rows now.
        trigger.rowDisplayed(14, of: 17)
        #expect(counter.count == 2)
    }

    @Test func aLoadThatBroughtNothingIsNotAskedForAgainUntilReset() {
        let counter = Counter()
        let trigger = InfiniteListTrigger(distanceFromEnd: 0) { counter.increment() }
        trigger.rowDisplayed(9, of: 10)
        trigger.rowDisplayed(9, of: 10)
        #expect(counter.count == 1)
        trigger.reset()
        trigger.rowDisplayed(9, of: 10)
        #expect(counter.count == 2)
    }

    @Test func isDueCountsTheAskWithoutCallingTheClosure() {
        let counter = Counter()
        let trigger = InfiniteListTrigger(distanceFromEnd: -4) { counter.increment() }
        #expect(trigger.distanceFromEnd == 0)
        #expect(trigger.isDue(4, of: 5))
        #expect(!trigger.isDue(4, of: 5))
        #expect(counter.count == 0)
    }
}
