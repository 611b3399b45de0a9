import Foundation

/// A fresh directory for one test's files, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("slippers-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of a file in the directory.
    func path(_ name: String = "cache.sqlite") -> String {
        url.appendingPathComponent(name).path
    }
}

/// The bytes of a file, for "left untouched" checks.
func contents(of path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Whether a file exists.
func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}
