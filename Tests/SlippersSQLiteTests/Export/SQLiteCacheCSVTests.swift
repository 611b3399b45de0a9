import Foundation
import Slippers
import SlippersSQLite
import SlippersStorage
import SlippersTestSupport
import Testing

@Suite struct SQLiteCacheCSVTests {
    let directory: TemporaryDirectory
    let store: SQLiteCache
    let posts = ListDescriptor(key: "GET /posts", itemType: "Post")

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteCache(path: directory.path())
    }

    private func save(_ objects: [String]) throws {
        let items = objects.enumerated().map { index, json in
            RawItem(key: .integer(index + 1), json: Data(json.utf8))
        }
        try store.savePage(Page(items: items), at: 0, in: posts)
    }

    private func csv() throws -> String {
        var output = Data()
        try store.writeCSV(of: posts.key) { output.append($0) }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func nestedObjectsBecomeDottedColumnsInFirstSeenOrder() throws {
        try save([
            #"{"id":1,"author":{"name":"Ann","address":{"city":"Oslo"}},"title":"One"}"#,
            #"{"id":2,"title":"Two","score":3.5,"draft":true}"#,
        ])
        #expect(
            try csv()
                == "id,author.name,author.address.city,title,score,draft\r\n"
                + "1,Ann,Oslo,One,,\r\n"
                + "2,,,Two,3.5,true\r\n")
    }

    @Test func arraysAndEmptyObjectsStayJSONTextAndNullIsEmpty() throws {
        try save([#"{"id":1,"tags":["a", "b\"c"],"meta":{},"gone":null,"nested":[{"x": 1}]}"#])
        #expect(
            try csv()
                == "id,tags,meta,gone,nested\r\n"
                + #"1,"[""a"",""b\""c""]",{},,"[{""x"":1}]""# + "\r\n")
    }

    @Test func fieldsAreQuotedAsRFC4180Says() throws {
        try save([#"{"id":1,"title":"a, \"quoted\"\nline","plain":"ok","emoji":"caf\u00e9 \ud83d\ude00"}"#])
        #expect(
            try csv()
                == "id,title,plain,emoji\r\n" + "1,\"a, \"\"quoted\"\"\nline\",ok,café 😀\r\n")
    }

    @Test func aRealParserReadsEveryRowBack() throws {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        try #require(
            FileManager.default.isExecutableFile(atPath: python.path),
            "python3 reads the CSV back: apt-get install python3")
        try save(
            (1...40).map { id in
                #"{"id":\#(id),"title":"Post, \"\#(id)\"\n\#(id)","author":{"name":"A\#(id % 3)"},"tags":[\#(id)]}"#
            })
        let file = directory.url.appendingPathComponent("posts.csv")
        try Data(try csv().utf8).write(to: file)
        let script = """
            import csv, json, sys
            with open(sys.argv[1], newline='', encoding='utf-8') as f:
                rows = list(csv.DictReader(f, strict=True))
            print(json.dumps(rows))
            """
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.launchedOneAtATime()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: String]])
        #expect(rows.count == 40)
        for (index, row) in rows.enumerated() {
            let id = index + 1
            #expect(
                row == [
                    "id": "\(id)", "title": "Post, \"\(id)\"\n\(id)", "author.name": "A\(id % 3)", "tags": "[\(id)]",
                ])
        }
    }

    @Test func anEmptyListWritesNothing() throws {
        try save([])
        #expect(try csv() == "")
    }

    @Test func anUnknownListIsAnError() {
        #expect(throws: CacheError.self) { try store.writeCSV(of: "GET /nothing") { _ in } }
    }
}
