import Foundation
import Logging
import Slippers

extension Array where Element == RawItem {
    /// Decodes every item with `JsonProvider`'s configuration.
    ///
    /// Each item is decoded from its own bytes by a decoder that reads a
    /// checked index of the JSON, with the results `JsonProvider.decoder`
    /// gives: keys converted from snake_case (each distinct key converted
    /// once, then remembered), ISO 8601 dates. An item it is not certain about
    /// (a `Float`, `Data`, a mismatch, bad JSON) sends the page to
    /// `JSONDecoder`, which gives the values or the error.
    ///
    /// The fall back to `JSONDecoder` is logged to `logger` at `debug`: it
    /// costs about twice the decoding it replaces.
    ///
    /// - throws: `DecodingError` naming the index of an item that does not match.
    public func decoded<Value: Decodable>(
        as type: Value.Type,
        logger: Logger = Logger(label: "slippers.cache", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        for (index, item) in enumerated() {
            guard let value = TapeDecoder.decode(type, from: item.json) else {
                ItemDecoder.logFallback(to: type, index: index, of: count, logger: logger)
                return try decodedAsOneDocument(as: type)
            }
            values.append(value)
        }
        return values
    }

    /// Decodes the items with `JSONDecoder`, joined into one array document, so an error names the item's index.
    private func decodedAsOneDocument<Value: Decodable>(as type: Value.Type) throws -> [Value] {
        var document = Data()
        document.reserveCapacity(reduce(2) { $0 + $1.json.count + 1 })
        document.append(UInt8(ascii: "["))
        for (index, item) in enumerated() {
            if index > 0 { document.append(UInt8(ascii: ",")) }
            document.append(item.json)
        }
        document.append(UInt8(ascii: "]"))
        return try ItemDecoder.shared.decode([Value].self, from: document)
    }
}
