import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct StoreErrorTests {
    @Test func aFileErrorIsItsCodeAndPathAndPrintsOneLine() {
        let error = StoreError.notAFile(path: "d", kind: "a directory")
        #expect(error.code == .notAFile)
        #expect(error.code != .fileNotFound)
        #expect(error.path == "d")
        #expect(error.detail == "a directory")
        #expect(error.description == "d is a directory, not a cache file; nothing was opened or created")
        #expect(error.code.description == "notAFile")
    }

    @Test func aCollectionTheFileDoesNotHoldIsTheSeamsErrorWithItsKey() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        #expect {
            try store.invalidate("nope")
        } throws: { error in
            guard let error = error as? CacheError else { return false }
            return error.code == .collectionNotFound && error.collection == "nope"
        }
    }

    @Test func errorsOfOneCodeDifferByTheirContext() {
        #expect(CacheError.pageOutOfOrder(collection: "a", index: 2) != .pageOutOfOrder(collection: "a", index: 3))
        #expect(CacheError.pageOutOfOrder(collection: "a", index: 2).pageIndex == 2)
        #expect(CacheError.listStalled(collection: "a", pages: 3).pageCount == 3)
        #expect(StoreError.busy(path: "c") == .busy(path: "c"))
    }
}
