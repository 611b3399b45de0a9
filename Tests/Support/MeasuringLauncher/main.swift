// Runs a command and writes how it ended, its peak memory and its processor time to a report file.
//
// Usage: MeasuringLauncher REPORT EXECUTABLE [ARGUMENT…]
//
// The kernel counts in a child's peak resident size the memory of the
// process it was spawned from, up to its exec: spawned from a test process
// holding 200 MB, any child reports at least 200 MB. This small process is
// spawned instead and spawns the command itself, so that the command's peak
// is its own. The report is one line: the exit status (128 + signal when
// killed), the peak resident size in kilobytes, the user + system seconds.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments
/// Writes a line to standard error.
func complain(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

guard arguments.count >= 3 else {
    complain("usage: MeasuringLauncher REPORT EXECUTABLE [ARGUMENT…]")
    exit(64)
}
let argv = arguments.dropFirst(2).map { strdup($0) } + [nil]
var pid = pid_t()
let spawned = posix_spawn(&pid, arguments[2], nil, nil, argv, environ)
guard spawned == 0 else {
    complain("MeasuringLauncher: cannot start \(arguments[2]): error \(spawned)")
    exit(70)
}
var status: Int32 = 0
var usage = rusage()
while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
// A normal exit has no signal number in the low 7 bits; its code is in the next 8.
let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
let seconds = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
let report = "\(exitStatus) \(usage.ru_maxrss) \(seconds)\n"
guard let file = fopen(arguments[1], "w") else { exit(73) }
fputs(report, file)
fclose(file)
exit(0)
