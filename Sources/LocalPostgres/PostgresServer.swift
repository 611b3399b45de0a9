import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL server of a test's own: `initdb` and `pg_ctl` in a temporary directory, on a
/// free port of 127.0.0.1, stopped when ``with(_:)``'s body ends.
///
/// Every tool runs as a child process waited for by polling, so no thread of the test runner
/// is blocked.
///
/// Run as root (as CI runs), the server runs as the `postgres` user, since `initdb` refuses
/// root. Connections over TCP need the password of ``user``, ``password``.
public final class PostgresServer: Sendable {
    /// The user the tests connect as.
    public static let user = "slippers"
    /// Its password.
    public static let password = "pg-test-s3cret"

    /// The server's port on 127.0.0.1.
    public let port: Int
    private let directory: TemporaryDirectory
    private let data: URL
    private let binaries: URL
    private let runAs: String?
    /// The server's process (`postgres`, through `runuser` when run as root), while it runs.
    private let postmaster = Mutex<SpawnedProcess?>(nil)

    /// The folder that holds `initdb` and `pg_ctl`: `$SLIPPERS_PG_BIN`, else the one on `PATH`,
    /// else Debian's `/usr/lib/postgresql/VERSION/bin`; `nil` when PostgreSQL is not installed.
    public static let binaries: URL? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let given = environment["SLIPPERS_PG_BIN"] { candidates.append(URL(fileURLWithPath: given)) }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(folder)))
        }
        let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: debian.path)) ?? []
        for version in versions.sorted().reversed() {
            candidates.append(debian.appendingPathComponent(version).appendingPathComponent("bin"))
        }
        return candidates.first { folder in
            ["initdb", "pg_ctl", "postgres"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent($0).path)
            }
        }.map { $0.resolvingSymlinksInPath() }
    }()

    /// Whether a missing PostgreSQL fails the tests that need it instead of skipping them:
    /// `SLIPPERS_REQUIRE_POSTGRES=1`, which CI sets.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["SLIPPERS_REQUIRE_POSTGRES"] == "1" }

    /// Whether the tests that need PostgreSQL run: it is installed, or it is required (and they fail).
    /// When they are skipped, one line says so and how to run them.
    public static let isAvailable: Bool = {
        if binaries != nil || isRequired { return true }
        print(
            "PostgreSQL tests skipped: initdb, pg_ctl and postgres were not found on PATH or in "
                + "/usr/lib/postgresql/*/bin; install Debian's postgresql (or set SLIPPERS_PG_BIN) to run them")
        return false
    }()

    /// Why a server could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `body` with a new server, stopped when it returns or throws.
    public static func with<Result>(_ body: (PostgresServer) async throws -> Result) async throws -> Result {
        let server = try PostgresServer()
        do {
            try await server.start()
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private init() throws {
        guard let binaries = Self.binaries else {
            throw Failure(description: "PostgreSQL is not installed (initdb, pg_ctl, postgres); install postgresql")
        }
        self.binaries = binaries
        directory = try TemporaryDirectory()
        data = directory.url.appendingPathComponent("data")
        runAs = geteuid() == 0 ? "postgres" : nil
        port = try Self.freePort()
    }

    /// Makes the cluster and starts its server.
    private func start() async throws {
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let passwordFile = directory.url.appendingPathComponent("password")
        try Data(Self.password.utf8).write(to: passwordFile)
        if let runAs {
            for url in [directory.url, data, passwordFile] {
                try FileManager.default.setAttributes([.ownerAccountName: runAs], ofItemAtPath: url.path)
            }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: data.path)
        try await run(
            "initdb",
            [
                "-D", data.path, "-U", Self.user, "--pwfile", passwordFile.path, "--auth-host=scram-sha-256",
                "--auth-local=trust", "--no-sync", "--encoding=UTF8", "--locale=C",
            ])
        let log = data.appendingPathComponent("log")
        try Data().write(to: log)
        if let runAs { try FileManager.default.setAttributes([.ownerAccountName: runAs], ofItemAtPath: log.path) }
        try await startServer()
    }

    /// Starts the server of the cluster and returns once it answers, within 60 s.
    ///
    /// Started as a child of ours, not by `pg_ctl start`: a server forked by pg_ctl would
    /// outlive what this process watches to see its child end.
    private func startServer() async throws {
        let log = data.appendingPathComponent("log")
        let postgres = [
            binaries.appendingPathComponent("postgres").path, "-D", data.path, "-p", String(port), "-k", data.path,
            "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off",
        ]
        let command = runAs.map { ["/usr/sbin/runuser", "-u", $0, "--"] + postgres } ?? postgres
        let server = try SpawnedProcess.spawn(
            command[0], Array(command.dropFirst()), environment: ProcessInfo.processInfo.environment,
            output: log.path, error: log.path)
        postmaster.withLock { $0 = server }
        // Ready when it answers a query: at most 60 s.
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if (try? await psql("SELECT 1")) == "1" { return }
            guard server.isRunning, ContinuousClock.now < deadline else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw Failure(description: "PostgreSQL did not start: \(text.suffix(2_000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops the server as `pg_ctl restart` does (`-m fast`: clients are told to go, sessions end),
    /// waits `downtime`, and starts it again on the same port and data.
    public func restart(after downtime: Duration = .zero) async throws {
        if let server = postmaster.withLock({ $0 }) {
            _ = try? await run("pg_ctl", ["-D", data.path, "-m", "fast", "-w", "stop"])
            while server.isRunning { try await Task.sleep(for: .milliseconds(10)) }
            postmaster.withLock { $0 = nil }
        }
        try await Task.sleep(for: downtime)
        try await startServer()
    }

    /// Stops the server at once and waits for its process to end; a server already stopped stays so.
    public func stop() async {
        guard let server = postmaster.withLock({ $0 }) else { return }
        if FileManager.default.fileExists(atPath: data.appendingPathComponent("postmaster.pid").path) {
            _ = try? await run("pg_ctl", ["-D", data.path, "-m", "immediate", "-w", "stop"])
        }
        while server.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        server.waitUntilExit()
        postmaster.withLock { $0 = nil }
    }

    /// A URL of the server for `database`, with the password when `withPassword`.
    public func url(database: String = "postgres", withPassword: Bool = true, query: String = "") -> String {
        let credential = withPassword ? "\(Self.user):\(Self.password)" : Self.user
        return "postgres://\(credential)@127.0.0.1:\(port)/\(database)" + (query.isEmpty ? "" : "?" + query)
    }

    /// Runs SQL through `psql` on `database` and returns what it printed (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") async throws -> String {
        let psql = binaries.appendingPathComponent("psql")
        let executable = FileManager.default.isExecutableFile(atPath: psql.path) ? psql.path : "/usr/bin/psql"
        return try await Self.launch(
            executable,
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", Self.user, "-d", database, "-v", "ON_ERROR_STOP=1",
                "-At", "-c", sql,
            ],
            environment: ["PGPASSWORD": Self.password])
    }

    /// A new, empty database of the server; its name.
    public func makeDatabase() async throws -> String {
        let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await psql("CREATE DATABASE \(name)")
        return name
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let path = binaries.appendingPathComponent(tool).path
        if let runAs {
            return try await Self.launch("/usr/sbin/runuser", ["-u", runAs, "--", path] + arguments, environment: [:])
        }
        return try await Self.launch(path, arguments, environment: [:])
    }

    private static func launch(_ executable: String, _ arguments: [String], environment: [String: String])
        async throws -> String
    {
        // A file, not a pipe: the server pg_ctl starts would hold a pipe open after pg_ctl exits.
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString).out")
        try Data().write(to: outputFile)
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let process = try SpawnedProcess.spawn(
            executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: outputFile.path, error: outputFile.path)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        let text = String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(URL(fileURLWithPath: executable).lastPathComponent) failed: \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A port of 127.0.0.1 that nothing listens on now, below the ephemeral range (32768 and up on
    /// Linux): the server binds it seconds later, after `initdb`, and again after a restart, and an
    /// ephemeral port could meanwhile be taken by any outgoing connection or port-0 listener.
    private static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            if try LoopbackPort.isFree(port) { return port }
        }
        throw Failure(description: "no free port between 20000 and 32000")
    }
}
