import Foundation
import Slippers

extension Array where Element == RawItem {
    /// Decodes every item with `JsonProvider` in one call.
    ///
    /// The items' JSON is joined into one array document: one decoder pass
    /// over the page costs less than one per item.
    ///
    /// - throws: `DecodingError` naming the index of an item that does not match.
    public func decoded<Value: Decodable>(as type: Value.Type) throws -> [Value] {
        guard !isEmpty else { return [] }
        var document = Data()
        document.reserveCapacity(reduce(2) { $0 + $1.json.count + 1 })
        document.append(UInt8(ascii: "["))
        for (index, item) in enumerated() {
            if index > 0 { document.append(UInt8(ascii: ",")) }
            document.append(item.json)
        }
        document.append(UInt8(ascii: "]"))
        return try JsonProvider.decode([Value].self, from: document)
    }
}
