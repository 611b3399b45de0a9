import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, for the tests that start real processes.
///
/// Foundation's `Process.run()` on Linux lists `/proc/self/fd` to close the descriptors the
/// child should not inherit, and was seen to crash in `memcpy` doing so while other threads of
/// the test runner opened and closed descriptors (servers, databases). This launcher asks the C
/// library to close them instead (`posix_spawn_file_actions_addclosefrom_np`), reads no
/// directory, and needs no run loop to see the child end.
public final class SpawnedProcess: Sendable {
    /// The child's process id.
    public let processIdentifier: Int32
    /// The child's wait status once it has been reaped.
    private let waitStatus = Mutex<Int32?>(nil)
    /// The child's peak resident set size once it has been reaped, in bytes (`ru_maxrss`).
    private let peakResident = Mutex<Int?>(nil)
    /// The largest of the child's own peaks (`VmHWM`) read while it ran, in bytes.
    private let sampledPeak = Mutex(0)

    private init(processIdentifier: Int32) {
        self.processIdentifier = processIdentifier
    }

    /// Reads the child's own peak resident set size every 20 ms while it runs, until it ends
    /// (a child that ended, reaped or not, has no memory to report).
    ///
    /// `ru_maxrss` cannot tell it: `posix_spawn` starts the child on the parent's memory
    /// (`CLONE_VM`) until it executes, and Linux keeps the larger of the two peaks across `exec`,
    /// so a child of a large parent reports the parent's peak.
    private func samplePeak() {
        let path = "/proc/\(processIdentifier)/status"
        Thread.detachNewThread { [weak self] in
            while let self, self.waitStatus.withLock({ $0 }) == nil,
                let status = try? String(contentsOfFile: path, encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            {
                self.sampledPeak.withLock { $0 = max($0, kilobytes * 1024) }
                usleep(20_000)
            }
        }
    }

    /// Starts `executable` with `arguments` and `environment`, its standard input read from
    /// `input`, its output and errors written to the files at `output` and `error` (the same file
    /// when they are equal), in `directory` when given. The child leads a process group of its own.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        input: String = "/dev/null", output: String, error: String
    ) throws -> SpawnedProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if error == output {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        closeDescriptorsAboveStandardError(&actions)
        if let directory { try changeDirectory(&actions, to: directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        let process = SpawnedProcess(processIdentifier: pid)
        process.samplePeak()
        return process
    }

    /// Whether the child has not ended yet; a child that ended is reaped here.
    public var isRunning: Bool {
        reap(blocking: false)
        return waitStatus.withLock { $0 } == nil
    }

    /// Blocks until the child ends.
    public func waitUntilExit() {
        reap(blocking: true)
    }

    /// The exit code, or the number of the signal that ended the child.
    public var terminationStatus: Int32 {
        let status = finishedStatus
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    /// Whether the child exited or was ended by a signal.
    public var terminationReason: Process.TerminationReason {
        finishedStatus & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    private var finishedStatus: Int32 {
        waitUntilExit()
        return waitStatus.withLock { $0 } ?? 0
    }

    /// The child's peak resident set size, in bytes, once it has ended: its own (`VmHWM`, read
    /// every 20 ms while it ran) where Linux tells it, else `ru_maxrss`.
    public var peakResidentBytes: Int {
        waitUntilExit()
        let sampled = sampledPeak.withLock { $0 }
        return sampled > 0 ? sampled : peakResident.withLock { $0 } ?? 0
    }

    private func reap(blocking: Bool) {
        waitStatus.withLock { status in
            guard status == nil else { return }
            var raw: Int32 = 0
            var usage = rusage()
            var result: pid_t
            repeat {
                result = wait4(processIdentifier, &raw, blocking ? 0 : WNOHANG, &usage)
            } while result == -1 && errno == EINTR
            guard result == processIdentifier else { return }
            status = raw
            // Linux counts ru_maxrss in kilobytes.
            peakResident.withLock { $0 = Int(usage.ru_maxrss) * 1024 }
        }
    }

    /// Closes every descriptor above stderr in the child: glibc has `posix_spawn_file_actions_addclosefrom_np`
    /// since 2.34, but does not declare it to Swift.
    public static func closeDescriptorsAboveStandardError(_ actions: inout posix_spawn_file_actions_t) {
        #if os(Linux)
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        #endif
    }

    /// Starts the child in `directory` (`posix_spawn_file_actions_addchdir_np`, glibc 2.29).
    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to directory: String) throws {
        typealias ChangeDirectory =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { throw POSIXError(.ENOSYS) }
        let result = directory.withCString { unsafeBitCast(symbol, to: ChangeDirectory.self)(&actions, $0) }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    }
}
