import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct SQLiteCacheErrorTests {
    @Test func aFileErrorIsItsCodeAndPathAndPrintsOneLine() {
        let error = SQLiteCacheError.notAFile(path: "d", kind: "a directory")
        #expect(error.code == .notAFile)
        #expect(error.code != .fileNotFound)
        #expect(error.path == "d")
        #expect(error.detail == "a directory")
        #expect(error.description == "d is a directory, not a cache file; nothing was opened or created")
        #expect(error.code.description == "notAFile")
    }

    @Test func aListTheFileDoesNotHoldIsTheSeamsErrorWithItsKey() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteCache(path: directory.path())
        #expect {
            try store.invalidate("nope")
        } throws: { error in
            guard let error = error as? CacheError else { return false }
            return error.code == .listNotFound && error.list == "nope"
        }
    }

    @Test func errorsOfOneCodeDifferByTheirContext() {
        #expect(CacheError.pageOutOfOrder(list: "a", index: 2) != .pageOutOfOrder(list: "a", index: 3))
        #expect(CacheError.pageOutOfOrder(list: "a", index: 2).pageIndex == 2)
        #expect(CacheError.listStalled(list: "a", pages: 3).pageCount == 3)
        #expect(SQLiteCacheError.busy(path: "c") == .busy(path: "c"))
    }
}
