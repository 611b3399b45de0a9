import Foundation

/// A fresh directory for one test's database files, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("slippers-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of a file in the directory.
    public func path(_ name: String = "cache.sqlite") -> String {
        url.appendingPathComponent(name).path
    }

    /// The names of the files in the directory whose bytes hold `text`: a database, its WAL, its shared memory.
    public func filesHolding(_ text: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted().filter { name in
            try contents(of: path(name)).range(of: Data(text.utf8)) != nil
        }
    }
}

/// The bytes of a file, for "left untouched" checks.
public func contents(of path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}
