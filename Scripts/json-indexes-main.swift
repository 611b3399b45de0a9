import Foundation

// Runs one case of Scripts/measure-json-indexes.sh: `json-indexes CASE ROUNDS`.
//
// A page of 50 items of ≈ 500 bytes under "results", as an API sends it.
func item(_ id: Int) -> String {
    let words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore"
    return #"{"id": \#(id), "title": "Post number \#(id) about caching", "body": "\#(words) \#(words)", "#
        + #""author": {"id": \#(id % 17), "name": "Author \#(id % 17)", "email": "author\#(id % 17)@example.com"}, "#
        + #""tags": ["swift", "sqlite", "paging"], "comment_count": \#(id * 3), "is_published": true, "#
        + #""created_at": "2024-05-01T12:00:00.123Z", "updated_at": null, "score": \#(id).5}"#
}
let page = Data(("{\"count\": 5000, \"next\": \"https://api.example.com/posts?page=3\", \"results\": ["
    + (1...50).map(item).joined(separator: ", ") + "]}").utf8)
let itemData = (1...50).map { Data(item($0).utf8) }

let mode = CommandLine.arguments[1]
let rounds = Int(CommandLine.arguments[2]) ?? 200
var sink = 0
let clock = ContinuousClock()
let start = clock.now
for _ in 0..<rounds {
    switch mode {
    case "scanner-page":
        let scanner = try JSONScanner(page)
        sink &+= try scanner.rawItems(at: ["results"]).count
    case "scanner-validate":
        sink &+= try JSONScanner(page).bytes.count
    case "tape-page":
        sink &+= page.withUnsafeBytes { JSONTape.parse($0)?.entries.count ?? 0 }
    case "scanner-items":
        for data in itemData { sink &+= try JSONScanner(data).bytes.count }
    case "tape-items":
        for data in itemData { sink &+= data.withUnsafeBytes { JSONTape.parse($0)?.entries.count ?? 0 } }
    default:
        sink &+= page.count
    }
}
let elapsed = start.duration(to: clock.now)
let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
print("\(mode): \(page.count) bytes a page, \(micros / Double(rounds)) µs a round (\(sink))")
