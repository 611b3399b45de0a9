import Foundation

/// A small tmpfs mounted for one test, which the test can turn read-only; unmounted when released.
public final class ReadOnlyMount {
    /// Whether this process may mount filesystems (root, outside a restricted container).
    public static let isAvailable: Bool = {
        guard getuid() == 0, let probe = try? ReadOnlyMount() else { return false }
        return (try? probe.makeReadOnly()) != nil
    }()

    /// The mount point.
    public let directory: String

    /// Mounts a 4 MB tmpfs on a new directory.
    public init() throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("slippers-mount-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", directory]) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Remounts the filesystem read-only.
    public func makeReadOnly() throws {
        guard Self.run("/bin/mount", ["-o", "remount,ro", directory]) else { throw CocoaError(.fileWriteNoPermission) }
    }

    deinit {
        _ = Self.run("/bin/umount", ["-l", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func run(_ executable: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
