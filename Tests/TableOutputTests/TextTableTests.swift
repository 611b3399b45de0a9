import TableOutput
import Testing

@Suite struct TextTableTests {
    @Test func alignsColumnsUnderTheirHeaders() {
        var table = TextTable([.init(header: "key"), .init(header: "items", alignment: .right)])
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
        var table = TextTable([.init(header: "a"), .init(header: "b")])
        table.append(["1"])
        table.append(["1", "2", "3"])
        #expect(table.rows == [["1", ""], ["1", "2"]])
    }

    @Test func linesUpLabelledValues() {
        #expect(TextTable.fields([("file", "cache.sqlite"), ("items", "12")]) == "file   cache.sqlite\nitems  12")
    }
}
