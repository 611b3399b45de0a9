import Foundation
import Slippers

/// One item of the local paginated API (the demo's, the benchmark's and the tests'): a deterministic blog post
/// made from its id alone.
///
/// Item *i* is the same in every run and every process, so a test (or a
/// benchmark) can check what it got against ``make(id:title:)`` without the
/// server. Its JSON is snake_case with ISO 8601 dates, as
/// `JsonProvider` reads it:
///
/// ```json
/// {"author":{"id":7,"name":"Ada Okafor"},"body":"…","created_at":"2024-01-01T00:37:00.001Z",
///  "id":1,"score":42,"tags":["swift","cache","paging"],"title":"…"}
/// ```
public struct FixtureItem: Codable, Sendable, Hashable, Identifiable, CacheIdentifiable {
    /// The item's id, from 1.
    public var id: ID<FixtureItem>
    /// A title of about 40 characters.
    public var title: String
    /// A body of about 300 characters.
    public var body: String
    /// When the item was created, with millisecond precision.
    public var createdAt: Date
    /// A score from 0 to 999.
    public var score: Int
    /// The item's author.
    public var author: Author
    /// Three tags.
    public var tags: [String]

    /// The author of a fixture item.
    public struct Author: Codable, Sendable, Hashable {
        /// The author's id, from 1 to 50.
        public var id: Int
        /// The author's name.
        public var name: String

        /// Creates an author.
        public init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// Creates an item.
    public init(
        id: ID<FixtureItem>, title: String, body: String, createdAt: Date, score: Int, author: Author, tags: [String]
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.score = score
        self.author = author
        self.tags = tags
    }

    /// The item with an id, as the server makes it; `title` replaces the generated title.
    public static func make(id: Int, title: String? = nil) -> FixtureItem {
        let parts = Parts(id: id)
        return FixtureItem(
            id: ID(id), title: title ?? parts.title, body: parts.body,
            createdAt: Date(timeIntervalSince1970: Double(parts.createdAtMilliseconds) / 1000),
            score: parts.score, author: Author(id: parts.authorID, name: parts.authorName), tags: parts.tags)
    }

    /// The JSON bytes the server sends for an item, keys sorted; `title` replaces the generated
    /// title, and `authorID` the generated author (with that author's name).
    public static func json(id: Int, title: String? = nil, authorID: Int? = nil) -> String {
        let parts = Parts(id: id)
        var json = #"{"author":{"id":"#
        json += String(authorID ?? parts.authorID)
        json += #","name":""# + (authorID.map(Parts.authorName(of:)) ?? parts.authorName)
        json += #""},"body":""# + parts.body
        json += #"","created_at":""# + parts.createdAtText + #"","id":"# + String(id)
        json += #","score":"# + String(parts.score) + #","tags":[""#
        json += parts.tags.joined(separator: #"",""#) + #""],"title":""#
        json += escaped(title ?? parts.title) + #""}"#
        return json
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let s where s.value < 0x20: result += String(format: "\\u%04x", s.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// The generated fields of one item, derived from its id by a small deterministic generator.
private struct Parts {
    let title: String
    let body: String
    let createdAtMilliseconds: Int64
    let createdAtText: String
    let score: Int
    let authorID: Int
    let authorName: String
    let tags: [String]

    private static let words = [
        "swift", "cache", "paging", "offline", "sqlite", "cursor", "network", "refresh", "token", "server",
        "client", "stream", "actor", "value", "record", "query", "index", "page", "store", "sync",
        "fixture", "signal", "reader", "writer", "schema", "vacuum", "journal", "window", "buffer", "socket",
    ]
    private static let firstNames = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia"]
    private static let lastNames = ["Okafor", "Lovelace", "Hopper", "Turing", "Liskov", "Knuth", "Allen", "Perlman"]
    private static let epochMilliseconds: Int64 = 1_704_067_200_000  // 2024-01-01T00:00:00Z

    init(id: Int) {
        var state = UInt64(truncatingIfNeeded: id) &* 0x9E37_79B9_7F4A_7C15 &+ 0xD1B5_4A32_D192_ED03
        func next(_ bound: Int) -> Int {
            state ^= state >> 33
            state = state &* 0xFF51_AFD7_ED55_8CCD
            state ^= state >> 29
            return Int(state % UInt64(bound))
        }
        func sentence(_ length: Int) -> String {
            var text = ""
            while text.count < length {
                if !text.isEmpty { text += " " }
                text += Self.words[next(Self.words.count)]
            }
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        title = String(sentence(36).prefix(40))
        body = (0..<5).map { _ in sentence(56) + "." }.joined(separator: " ")
        score = next(1000)
        authorID = next(50) + 1
        authorName = Self.authorName(of: authorID)
        tags = (0..<3).map { _ in Self.words[next(Self.words.count)] }
        createdAtMilliseconds = Self.epochMilliseconds + Int64(id) * 37 * 60_000 + Int64(id % 1000)
        createdAtText = Self.iso8601(milliseconds: createdAtMilliseconds)
    }

    /// The name of the author with an id.
    static func authorName(of authorID: Int) -> String {
        let index = abs(authorID % (firstNames.count * lastNames.count))
        return firstNames[index % firstNames.count] + " " + lastNames[index % lastNames.count]
    }

    private static func iso8601(milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        let millis = Int(milliseconds % 1000)
        let days = Int(seconds / 86_400)
        let secondOfDay = Int(seconds % 86_400)
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
    }
}
