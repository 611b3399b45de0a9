import Foundation
import Slippers
import Testing

private struct Event: Codable, Equatable {
    let eventName: String
    let startsAt: Date
}

@Suite struct JsonProviderTests {
    private let instant = Date(timeIntervalSince1970: 1_714_564_800)

    @Test func decodesSnakeCaseKeys() throws {
        let event = try JsonProvider.decode(
            Event.self, from: #"{"event_name": "Launch", "starts_at": "2024-05-01T12:00:00Z"}"#)
        #expect(event == Event(eventName: "Launch", startsAt: instant))
    }

    @Test(arguments: [
        ("2024-05-01T12:00:00Z", 0.0),
        ("2024-05-01T12:00:00.123Z", 0.123),
        ("2024-05-01T12:00:00.123456Z", 0.123456),
        ("2024-05-01T14:00:00+02:00", 0.0),
        ("2024-05-01T09:30:00.5-02:30", 0.5),
    ])
    func acceptsFractionalSecondsAndOffsets(text: String, fraction: Double) throws {
        let event = try JsonProvider.decode(Event.self, from: #"{"event_name": "x", "starts_at": "\#(text)"}"#)
        #expect(abs(event.startsAt.timeIntervalSince1970 - (instant.timeIntervalSince1970 + fraction)) < 0.000_01)
    }

    @Test(arguments: ["2024-05-01", "yesterday", "1714564800"])
    func rejectsTextThatIsNotAnISO8601InstantWithADecodingError(text: String) {
        #expect(throws: DecodingError.self) {
            try JsonProvider.decode(Event.self, from: #"{"event_name": "x", "starts_at": "\#(text)"}"#)
        }
    }

    @Test func encodesSnakeCaseKeysSortedWithMillisecondDates() throws {
        let event = Event(eventName: "Launch", startsAt: instant.addingTimeInterval(0.25))
        let text = String(decoding: try JsonProvider.encode(event), as: UTF8.self)
        #expect(text == #"{"event_name":"Launch","starts_at":"2024-05-01T12:00:00.250Z"}"#)
        #expect(try JsonProvider.decode(Event.self, from: text) == event)
    }

    @Test func encodingTheSameValueTwiceGivesTheSameBytes() throws {
        let value = ["b": 1, "a": 2, "c": 3, "d": 4, "e": 5]
        #expect(try JsonProvider.encode(value) == JsonProvider.encode(value))
    }

    @Test func forceVariantsRoundTrip() {
        let event = Event(eventName: "x", startsAt: instant)
        let data = JsonProvider.forceEncode(event)
        #expect(JsonProvider.forceDecode(Event.self, from: data) == event)
        let fromText: Event = JsonProvider.forceDecode(from: String(decoding: data, as: UTF8.self))
        #expect(fromText == event)
    }

    @Test func malformedJSONThrowsADecodingError() {
        #expect(throws: DecodingError.self) { try JsonProvider.decode(Event.self, from: #"{"event_name": "#) }
    }

    @Test func madeCodersMatchTheSharedOnes() throws {
        let event = Event(eventName: "x", startsAt: instant)
        #expect(try JsonProvider.makeEncoder().encode(event) == JsonProvider.encode(event))
        #expect(try JsonProvider.makeDecoder().decode(Event.self, from: JsonProvider.encode(event)) == event)
    }
}
