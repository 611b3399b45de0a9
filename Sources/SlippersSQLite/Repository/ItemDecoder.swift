import Foundation
import Logging
import Slippers
import Synchronization

/// The decoder of stored items: `JsonProvider`'s configuration, with snake_case key conversions remembered.
///
/// `JSONDecoder`'s `.convertFromSnakeCase` converts every key of every object
/// it decodes, splitting and re-joining the string each time: about 29% of
/// decoding a page of items, whose 50 objects repeat the same ten keys. This
/// decoder converts each distinct key once and remembers the result. It stays
/// exactly `.convertFromSnakeCase`: a key is converted by `JsonProvider`'s own
/// decoder the first time it is met (see `SnakeCaseKeys.convert(_:)`), and
/// `JSONDecoder` applies a custom key strategy where it applies the snake_case
/// one (object keys, never the keys of a decoded `Dictionary`).
enum ItemDecoder {
    /// The shared decoder; like `JsonProvider.decoder`, it is never reconfigured.
    static let shared: JSONDecoder = {
        let decoder = JsonProvider.makeDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            SnakeCaseKeys.ConvertedKey(stringValue: SnakeCaseKeys.shared.converted(path.last!.stringValue))
        }
        return decoder
    }()

    /// Decodes one item as ``shared`` does, through a ``TapeDecoder`` when it can.
    ///
    /// - throws: `shared`'s `DecodingError` when the item does not decode.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from json: Data,
        logger: Logger = Logger(label: "slippers.cache", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws -> Value {
        if let value = TapeDecoder.decode(type, from: json) { return value }
        logFallback(to: type, index: 0, of: 1, logger: logger)
        return try shared.decode(type, from: json)
    }

    /// Logs at `debug` that the item at `index` sent a decode to `JSONDecoder`.
    static func logFallback<Value>(to type: Value.Type, index: Int, of count: Int, logger: Logger) {
        logger.debug(
            "decoding falls back to JSONDecoder",
            metadata: ["type": "\(type)", "item_index": "\(index)", "items": "\(count)"])
    }
}

/// A bounded memory of snake_case keys converted to camelCase, shared by every decode.
final class SnakeCaseKeys: Sendable {
    /// The memory every ``ItemDecoder`` decode uses.
    static let shared = SnakeCaseKeys()

    /// Keys beyond this many are converted every time and not remembered, so that a server sending
    /// ever-new keys cannot grow the memory without bound. Real models have far fewer.
    static let capacity = 4_096

    private let conversions = Mutex<[String: String]>([:])

    /// `key` as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` converts it.
    func converted(_ key: String) -> String {
        if let known = conversions.withLock({ $0[key] }) { return known }
        let converted = Self.convert(key)
        conversions.withLock { conversions in
            if conversions.count < Self.capacity { conversions[key] = converted }
        }
        return converted
    }

    /// How many conversions are remembered.
    var count: Int { conversions.withLock { $0.count } }

    /// Converts `key` with `JsonProvider`'s decoder itself, so the result is exactly its conversion.
    ///
    /// The key is written as the only key of an object (by an encoder without a key
    /// strategy, which also escapes it) and read back through a keyed container,
    /// whose keys the snake_case strategy converts.
    static func convert(_ key: String) -> String {
        guard let document = try? JSONEncoder().encode([key: 0]),
            let probe = try? JsonProvider.decoder.decode(KeyProbe.self, from: document)
        else { return key }
        return probe.key
    }

    /// A coding key with any string value.
    struct ConvertedKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// The one key of a one-key object, as the decoder hands it to a keyed container.
    private struct KeyProbe: Decodable {
        var key: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ConvertedKey.self)
            guard let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no key"))
            }
            self.key = key.stringValue
        }
    }
}
