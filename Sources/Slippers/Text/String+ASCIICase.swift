extension StringProtocol {
    /// Whether the two are the same text once ASCII letters are folded to one case: how HTTP
    /// header names and other protocol tokens compare (RFC 9110, 5.1). Other bytes compare as they
    /// are; no Foundation, no Unicode case tables, no allocation.
    ///
    /// ```swift
    /// "Content-Type".equalsIgnoringASCIICase("content-type")  // true
    /// ```
    package func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        var left = utf8.makeIterator()
        var right = other.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let a?, let b?):
                if a == b { continue }
                guard a | 0x20 == b | 0x20, (0x61...0x7A).contains(a | 0x20) else { return false }
            default: return false
            }
        }
    }
}

extension Dictionary where Key == String {
    /// The value of `key`, or else of a key equal to it ignoring ASCII case: a header of a
    /// response, by a name written in any case.
    ///
    /// ```swift
    /// ["Content-Type": "application/json"].value(ignoringASCIICase: "content-type")  // "application/json"
    /// ```
    package func value(ignoringASCIICase key: String) -> Value? {
        self[key] ?? first { $0.key.equalsIgnoringASCIICase(key) }?.value
    }
}
