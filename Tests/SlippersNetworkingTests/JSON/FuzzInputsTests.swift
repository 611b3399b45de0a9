import Foundation
import SlippersNetworking
import SlippersTestSupport
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
            let style = PaginationStyle.explain(url: url, body: body, headers: link.isEmpty ? [:] : ["Link": link])
                .style
            let decoded = try JSONDecoder().decode(PaginationStyle.self, from: JSONEncoder().encode(style))
            #expect(decoded == style, "\(name)")
        }
    }
}
