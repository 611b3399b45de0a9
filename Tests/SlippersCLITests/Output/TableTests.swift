import Testing

@testable import SlippersCLI

@Suite struct TableTests {
    @Test func alignsColumnsUnderTheirHeaders() {
        var table = Table([.init(header: "key"), .init(header: "items", alignment: .right)])
        table.append(["posts", "1200"])
        table.append(["comments?post=1", "3"])
        #expect(
            table.render() == """
                key              items
                ---------------  -----
                posts             1200
                comments?post=1      3
                """)
    }

    @Test func padsMissingCellsAndDropsExtraOnes() {
        var table = Table([.init(header: "a"), .init(header: "b")])
        table.append(["1"])
        table.append(["1", "2", "3"])
        #expect(table.rows == [["1", ""], ["1", "2"]])
    }
}
