import Foundation

/// What a person typed into a search field, as an FTS5 query that never fails to parse.
///
/// Words are ANDed; text between double quotes is a phrase; the last word, when the text does
/// not end with a space, matches as a prefix (`mess` finds `message`). Every term is quoted, so
/// FTS5's own syntax (`AND`, `OR`, `NOT`, `NEAR`, `*`, `^`, `:`, parentheses) is matched as text.
///
/// For example:
///
/// ```swift
/// SearchPattern("cafe \"new york\" mess").query    // "cafe" "new york" "mess"*
/// ```
public struct SearchPattern: Sendable, Hashable {
    /// The terms, in order: each a word or a phrase, with no quotes of its own.
    public let terms: [String]
    /// Whether the last term matches as a prefix.
    public let lastTermIsPrefix: Bool

    /// Reads a person's text into terms.
    public init(_ text: String) {
        var terms: [String] = []
        var current = ""
        var inPhrase = false
        var lastIsWord = false
        for character in text {
            if character == "\"" {
                if inPhrase {
                    terms.append(current)
                    lastIsWord = false
                } else if !current.isEmpty {
                    terms.append(current)
                }
                current = ""
                inPhrase.toggle()
            } else if Self.isControl(character) {
                // FTS5 reads a query as C text: a NUL would end it mid-string. Control characters separate words.
                if !current.isEmpty && !inPhrase {
                    terms.append(current)
                    current = ""
                } else if inPhrase {
                    current.append(" ")
                }
                lastIsWord = false
            } else if !inPhrase && character.isWhitespace {
                if !current.isEmpty { terms.append(current) }
                current = ""
                lastIsWord = false
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty {
            terms.append(current)
            // An unclosed phrase is a phrase; a word the text ends with is still being typed.
            lastIsWord = !inPhrase
        }
        self.terms = terms.filter { !$0.allSatisfy(\.isWhitespace) }
        lastTermIsPrefix = lastIsWord
    }

    /// Whether `character` is a control character (NUL, escape, …), which no word holds.
    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether the text holds no term: such a search finds nothing.
    public var isEmpty: Bool { terms.isEmpty }

    /// The FTS5 query: each term a quoted string (its quotes doubled), the last one a prefix when it is a word.
    public var query: String {
        terms.enumerated().map { index, term in
            let quoted = "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return index == terms.count - 1 && lastTermIsPrefix ? quoted + "*" : quoted
        }.joined(separator: " ")
    }
}
