import Foundation
import Slippers
import SlippersSQLite
import Testing

/// The repository decodes with remembered key conversions: the results must be exactly `JsonProvider`'s.
@Suite struct ItemDecodingTests {
    private struct Tricky: Codable, Equatable, Sendable {
        var plainKey: Int
        var _leadingUnderscore: Int
        // Names as the snake_case conversion produces them, odd ones included.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var trailing_: Int
        var urlId: Int
        var doubleUnder: Int?
        // swift-format-ignore: IdentifiersMustBeASCII
        var ünïCödé: Int
        var counts: [String: Int]
        var nested: Nested
        var createdAt: Date

        struct Nested: Codable, Equatable, Sendable {
            var innerValue: String
        }
    }

    private let json = #"""
        {"plain_key": 1, "_leading_underscore": 2, "trailing_": 3, "URL_ID": 4, "double__under": 5,
         "ünï_cödé": 6, "counts": {"snake_key": 7, "other_one": 8}, "nested": {"inner_value": "x"},
         "created_at": "2024-05-01T12:00:00.123Z", "unknown_extra_key": [1, {"deep_key": 2}]}
        """#

    @Test func decodingAPageGivesWhatJsonProviderGives() throws {
        let raw = RawItem(key: .integer(1), json: Data(json.utf8))
        let expected = try JsonProvider.decode(Tricky.self, from: Data(json.utf8))
        // Twice: the first decode converts the keys, the second finds them remembered.
        #expect(try [raw, raw].decoded(as: Tricky.self) == [expected, expected])
        #expect(try [raw].decoded(as: Tricky.self) == [expected])
        #expect(expected.counts == ["snake_key": 7, "other_one": 8])
    }

    @Test func aMissingKeyIsTheSameDecodingErrorAsJsonProviders() throws {
        let raw = RawItem(key: .integer(1), json: Data(#"{"plain_key": 1}"#.utf8))
        #expect(throws: DecodingError.self) { try [raw].decoded(as: Tricky.self) }
        #expect(throws: DecodingError.self) { try JsonProvider.decode(Tricky.self, from: raw.json) }
    }
}
