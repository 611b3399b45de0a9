import Foundation
import GRDBSQLite

/// The machine and software a report was measured on, so numbers are never read without their context.
struct Machine: Sendable, Encodable {
    var cpu: String
    var cores: Int
    var memoryBytes: UInt64
    var os: String
    var swift: String
    var build: String
    var sqlite: String
    var date: String

    private enum CodingKeys: String, CodingKey {
        case cpu, cores, os, swift, build, sqlite, date
        case memoryBytes = "memory_bytes"
    }

    /// Reads the current machine: `/proc/cpuinfo`, `/etc/os-release`, and what the binary was built with.
    static func current() -> Machine {
        Machine(
            cpu: cpuModel() ?? "unknown",
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory,
            os: operatingSystem(),
            swift: compilerVersion,
            build: buildConfiguration,
            sqlite: String(cString: sqlite3_libversion()),
            date: Date.now.formatted(.iso8601)
        )
    }

    /// A one-line summary for the table's header.
    var summary: String {
        let gibibytes = Double(memoryBytes) / Double(1 << 30)
        return "\(cpu), \(cores) cores, \(String(format: "%.0f", gibibytes)) GiB, \(os), "
            + "Swift \(swift) (\(build)), SQLite \(sqlite), \(date)"
    }

    private static func cpuModel() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        return value(of: "model name", in: text, separator: ":")
    }

    private static func operatingSystem() -> String {
        var name = ProcessInfo.processInfo.operatingSystemVersionString
        if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
            let pretty = value(of: "PRETTY_NAME", in: text, separator: "=")
        {
            name = pretty.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        var system = utsname()
        uname(&system)
        let release = withUnsafeBytes(of: system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return release.isEmpty ? name : "\(name), kernel \(release)"
    }

    private static func value(of key: String, in text: String, separator: Character) -> String? {
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: separator, maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    // The compiler that built this binary, which is what the numbers depend on; the
    // `swift` on the PATH at run time may be another one, or absent.
    private static let compilerVersion: String = {
        #if compiler(>=6.4)
            return ">= 6.4"
        #elseif compiler(>=6.3.1)
            return "6.3.1"
        #elseif compiler(>=6.3)
            return "6.3"
        #elseif compiler(>=6.2)
            return "6.2"
        #elseif compiler(>=6.1)
            return "6.1"
        #else
            return "6.0"
        #endif
    }()

    // Debug numbers are meaningless for the targets; the report says which build it came from.
    private static let buildConfiguration: String = {
        #if DEBUG
            return "debug"
        #else
            return "release"
        #endif
    }()
}
