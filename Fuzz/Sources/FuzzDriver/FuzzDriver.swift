import Foundation

/// What libFuzzer calls with each input: its bytes and their count; returns 0.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzTarget
) -> CInt

/// Runs libFuzzer's driver with this process's arguments on `target`, then exits with its status.
///
/// SwiftPM links an executable target's own `main` (it renames it for testing), so the
/// targets start libFuzzer themselves instead of taking the `main` of `-sanitize=fuzzer`.
public func runFuzzer(_ target: FuzzTarget) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(llvmFuzzerRunDriver(&argc, &argv, target))
}
