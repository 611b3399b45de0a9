/// A value written so that a POSIX shell reads it back as it is: the flags `detect` prints and
/// the commands a loud line gives.
enum ShellWord {
    /// `value` as it is when it is plain (letters, digits, `_-.@/:`), else in single quotes.
    static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && value.allSatisfy { $0.isLetter || $0.isNumber || "_-.@/:".contains($0) }
        return plain ? value : "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
