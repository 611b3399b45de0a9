import Foundation

/// What a command printed with `--json`, parsed.
func parsedJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// The keys of the first object of a pretty-printed JSON text, in the order they were written.
func writtenKeys(ofFirstObjectIn text: String) -> [String] {
    var keys: [String] = []
    var depth = 0
    var objectDepth: Int?
    for line in text.split(separator: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if objectDepth == nil, trimmed.hasPrefix("{") { objectDepth = depth + 1 }
        if let objectDepth, depth == objectDepth, trimmed.hasPrefix("\""),
            let end = trimmed.dropFirst().firstIndex(of: "\"")
        {
            keys.append(String(trimmed[trimmed.index(after: trimmed.startIndex)..<end]))
        }
        depth += trimmed.filter { "[{".contains($0) }.count - trimmed.filter { "]}".contains($0) }.count
        if let objectDepth, depth < objectDepth { break }
    }
    return keys
}

extension BuiltBinary.Outcome {
    /// The lines printed on standard error.
    var stderrLines: [Substring] { stderr.split(separator: "\n") }

    /// The lines printed on standard output.
    var stdoutLines: [Substring] { stdout.split(separator: "\n") }
}
