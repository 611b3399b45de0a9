import Foundation

/// A small tmpfs mounted for one test, which the test can turn read-only or fill; unmounted when released.
public final class ScratchMount {
    /// Whether this process may mount filesystems (root, outside a restricted container).
    public static let isAvailable: Bool = {
        guard getuid() == 0, let probe = try? ScratchMount() else { return false }
        return (try? probe.makeReadOnly()) != nil
    }()

    /// The mount point.
    public let directory: String

    /// Mounts a tmpfs of `megabytes` on a new directory.
    public init(megabytes: Int = 4) throws {
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("slippers-mount-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory]) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Remounts the filesystem read-only.
    public func makeReadOnly() throws {
        guard Self.run("/bin/mount", ["-o", "remount,ro", directory]) else { throw CocoaError(.fileWriteNoPermission) }
    }

    /// Gives the filesystem another size: space freed, or taken away.
    public func resize(megabytes: Int) throws {
        guard Self.run("/bin/mount", ["-o", "remount,size=\(megabytes)m", directory]) else {
            throw CocoaError(.fileWriteNoPermission)
        }
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
