import Foundation
import SlippersTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a measured run ended, the most memory it held and the processor time it used.
struct MeasuredRun {
    var status: Int32
    /// The peak resident set size of the child, as the kernel counted it.
    var peakResidentBytes: Int
    /// The processor time of the child, user and system together, in seconds.
    var cpuSeconds: Double = 0
}

extension BuiltBinary {
    /// Runs the binary to its end with standard output to `stdoutPath`, and measures its peak memory and CPU time.
    ///
    /// The binary is started by `MeasuringLauncher`, a small process that
    /// reaps it with `wait4` and reports its usage: a process spawned straight
    /// from the test process would count the test process's memory as its own.
    func runMeasuringMemory(
        _ arguments: [String], stdoutPath: String, stderrPath: String = "/dev/null"
    ) throws -> MeasuredRun {
        let reportPath = stdoutPath + ".usage"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Otherwise the child inherits whatever other tests hold open at that moment, such as a
        // binary being copied for writing, and running that copy then fails with "Text file busy".
        SpawnedProcess.closeDescriptorsAboveStandardError(&actions)
        var environment = ProcessInfo.processInfo.environment
        environment["SLIPPERS_DB"] = nil
        let launcher = Self.productsDirectory.appendingPathComponent("MeasuringLauncher").path
        let argv = ([launcher, reportPath, url.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, launcher, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let fields = try String(contentsOfFile: reportPath, encoding: .utf8).split(separator: " ")
        guard fields.count == 3, let exitStatus = Int32(fields[0]), let kilobytes = Int(fields[1]),
            let cpuSeconds = Double(fields[2].trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw POSIXError(.EIO) }
        // Linux counts ru_maxrss in kilobytes.
        return MeasuredRun(status: exitStatus, peakResidentBytes: kilobytes * 1024, cpuSeconds: cpuSeconds)
    }
}
