import Foundation

/// Whether a file exists.
func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}
