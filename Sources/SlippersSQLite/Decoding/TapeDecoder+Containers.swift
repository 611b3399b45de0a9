import Foundation

extension TapeDecoder {
    /// An object's members, looked up by their converted keys.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: TapeDecoder
        let members: [(key: String, value: Int)]
        let path: CodingPath

        var codingPath: [any CodingKey] { path.keys }

        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        func contains(_ key: Key) -> Bool {
            index(of: key) != nil
        }

        private func index(of key: Key) -> Int? {
            let name = key.stringValue
            for member in members where member.key == name { return member.value }
            return nil
        }

        private func value(_ key: Key) throws -> Int {
            guard let index = index(of: key) else { throw decoder.refuse() }
            return index
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            decoder.isNull(at: try value(key))
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try decoder.bool(at: value(key))
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try decoder.string(checkedAt: value(key))
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try decoder.double(at: value(key))
        }

        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            throw decoder.refuse()
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(type, at: value(key)) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(type, at: value(key)) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(type, at: value(key)) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(type, at: value(key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(type, at: value(key)) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(type, at: value(key)) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(type, at: value(key)) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
            try decoder.integer(type, at: value(key))
        }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
            try decoder.integer(type, at: value(key))
        }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            try decoder.integer(type, at: value(key))
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder.unwrap(type, at: value(key), path: path, appending: key)
        }

        /// A missing key or `null` is `nil`, as with `JSONDecoder`; one lookup instead of three.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let index = index(of: key), !decoder.isNull(at: index) else { return nil }
            return try decoder.unwrap(type, at: index, path: path, appending: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try decoder.keyedContainer(keyedBy: type, at: value(key), path: path.appending(key))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.unkeyedContainer(at: value(key), path: path.appending(key))
        }

        func superDecoder() throws -> any Decoder {
            throw decoder.refuse()
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            throw decoder.refuse()
        }
    }

    /// An array's elements, in order.
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: TapeDecoder
        /// The entry of the element at ``currentIndex``.
        var next: Int
        let elementCount: Int
        let path: CodingPath
        var currentIndex = 0

        init(decoder: TapeDecoder, next: Int, count: Int, path: CodingPath) {
            self.decoder = decoder
            self.next = next
            self.elementCount = count
            self.path = path
        }

        var codingPath: [any CodingKey] { path.keys }
        var count: Int? { elementCount }
        var isAtEnd: Bool { currentIndex >= elementCount }

        /// The entry of the next element, which the call then moves past.
        private mutating func advance() throws -> (index: Int, key: IndexKey) {
            guard !isAtEnd else { throw decoder.refuse() }
            let element = (next, IndexKey(currentIndex))
            next = decoder.skip(next)
            currentIndex += 1
            return element
        }

        /// The entry of the next element without a coding path, for scalars.
        private mutating func advanceScalar() throws -> Int {
            guard !isAtEnd else { throw decoder.refuse() }
            let index = next
            next += 1
            currentIndex += 1
            return index
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw decoder.refuse() }
            guard decoder.isNull(at: next) else { return false }
            _ = try advanceScalar()
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(at: advanceScalar()) }
        mutating func decode(_ type: String.Type) throws -> String { try decoder.string(checkedAt: advanceScalar()) }
        mutating func decode(_ type: Double.Type) throws -> Double { try decoder.double(at: advanceScalar()) }
        mutating func decode(_ type: Float.Type) throws -> Float { throw decoder.refuse() }
        mutating func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type, at: advanceScalar()) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type, at: advanceScalar()) }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let element = try advance()
            return try decoder.unwrap(type, at: element.index, path: path, appending: element.key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            let element = try advance()
            return try decoder.keyedContainer(keyedBy: type, at: element.index, path: path.appending(element.key))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let element = try advance()
            return try decoder.unkeyedContainer(at: element.index, path: path.appending(element.key))
        }

        mutating func superDecoder() throws -> any Decoder {
            throw decoder.refuse()
        }
    }

    /// One value.
    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: TapeDecoder
        let index: Int
        let path: CodingPath

        var codingPath: [any CodingKey] { path.keys }

        func decodeNil() -> Bool { decoder.isNull(at: index) }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(at: index) }
        func decode(_ type: String.Type) throws -> String { try decoder.string(checkedAt: index) }
        func decode(_ type: Double.Type) throws -> Double { try decoder.double(at: index) }
        func decode(_ type: Float.Type) throws -> Float { throw decoder.refuse() }
        func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type, at: index) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type, at: index) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type, at: index) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type, at: index) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type, at: index) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type, at: index) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type, at: index) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type, at: index) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type, at: index) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type, at: index) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try decoder.unwrap(type, at: index, path: path)
        }
    }
}
