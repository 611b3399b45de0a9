/// An `If-Match` / `If-None-Match` value: an entity-tag (RFC 9110, 8.8.3), quoted as the header requires.
enum EntityTag {
    /// `version` as an entity-tag: as it is when it is one already (`"v1"`, `W/"v1"`), else quoted
    /// (`v1` → `"v1"`, as a version field's value is sent), a quote or backslash inside it dropped.
    static func quoted(_ version: String) -> String {
        if version.hasPrefix("\""), version.hasSuffix("\""), version.count >= 2 { return version }
        if version.hasPrefix("W/\""), version.hasSuffix("\""), version.count >= 4 { return version }
        return "\"" + version.filter { $0 != "\"" && $0 != "\\" } + "\""
    }
}
