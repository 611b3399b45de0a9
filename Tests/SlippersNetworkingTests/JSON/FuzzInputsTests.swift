import Foundation
import SlippersNetworking
import Testing

/// The checked-in inputs of the networking fuzz targets, replayed through the targets' checks.
@Suite struct FuzzInputsTests {
    @Test func theJSONScannerTakesEverySeedAndKeepsItsValuesInsideTheInput() throws {
        let inputs = try FuzzInputs.of("FuzzJSONScanner")
        #expect(inputs.count >= 5)
        for (name, data) in inputs {
            guard let scanner = try? JSONScanner(data) else { continue }
            #expect(scanner.root.range.upperBound <= data.count, "\(name)")
            for path in [[], ["results"], ["data"], ["items"], ["data", "items"]] {
                _ = try? scanner.rawItems(at: path)
            }
        }
    }

    @Test func theLinkHeaderParserTakesEverySeed() throws {
        let inputs = try FuzzInputs.of("FuzzLinkHeader")
        #expect(inputs.count >= 3)
        for (_, data) in inputs {
            let header = LinkHeader(String(decoding: data, as: UTF8.self))
            for relation in ["next", "prev", "last"] { _ = header.url(rel: relation) }
        }
    }

    @Test func detectionGivesEverySeedAStyleThatSurvivesItsJSONRoundTrip() throws {
        let inputs = try FuzzInputs.of("FuzzStyleDetection")
        #expect(inputs.count >= 5)
        let url = try #require(URL(string: "https://api.example.com/v1/posts"))
        for (name, data) in inputs {
            let bytes = Array(data)
            let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let link = String(decoding: bytes[..<newline], as: UTF8.self)
            let body = Data(bytes[min(newline + 1, bytes.count)...])
            let style = PaginationStyle.detect(url: url, body: body, headers: link.isEmpty ? [:] : ["Link": link])
            let decoded = try JSONDecoder().decode(PaginationStyle.self, from: JSONEncoder().encode(style))
            #expect(decoded == style, "\(name)")
        }
    }
}

/// The inputs of a fuzz target kept in the repository: its seeds, and the inputs of crashes found and fixed.
private enum FuzzInputs {
    /// The package's `Fuzz/` directory, found from this source file.
    private static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// Every input of `target`, by file name (`Corpus/…` and `Regressions/…`).
    static func of(_ target: String) throws -> [(name: String, data: Data)] {
        var inputs: [(name: String, data: Data)] = []
        for folder in ["Corpus", "Regressions"] {
            let directory = fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                inputs.append(("\(folder)/\(name)", try Data(contentsOf: directory.appendingPathComponent(name))))
            }
        }
        return inputs
    }
}
