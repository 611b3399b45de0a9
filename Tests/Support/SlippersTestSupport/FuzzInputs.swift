import Foundation

/// The inputs of a fuzz target kept in the repository: its seeds and the inputs of crashes found and fixed.
///
/// The regression tests replay them through the same checks as the fuzz target, so
/// a crash once found by `.ci/fuzz` stays fixed in every `swift test`.
public enum FuzzInputs {
    /// The package's `Fuzz/` directory, found from this source file.
    private static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// Every input of `target`, by file name (`Corpus/…` and `Regressions/…`).
    public static func of(_ target: String) throws -> [(name: String, data: Data)] {
        var inputs: [(name: String, data: Data)] = []
        for folder in ["Corpus", "Regressions"] {
            let directory = fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                inputs.append(("\(folder)/\(name)", try Data(contentsOf: directory.appendingPathComponent(name))))
            }
        }
        return inputs
    }
}
