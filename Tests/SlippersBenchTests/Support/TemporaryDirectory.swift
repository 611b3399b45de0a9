import Foundation

/// A fresh directory for one test; the test removes it with `defer { directory.remove() }`.
///
/// Removal is explicit rather than in a `deinit`: Swift may release a value
/// after its last use, which would delete the files under a baseline still using them.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("slippers-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
