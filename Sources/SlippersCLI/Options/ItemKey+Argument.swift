import Slippers

extension ItemKey {
    /// The key an id typed on the command line names: all digits is an integer id, anything else a string id.
    init(commandLineArgument text: String) {
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigit), let value = Int(text) {
            self = .integer(value)
        } else {
            self = .string(text)
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
