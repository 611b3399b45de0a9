import ArgumentParser
import Foundation
import SlippersKit
import SlippersNetworking

/// Turns a command's failure into the one line a user reads on standard error.
enum ErrorReport {
    /// The line for `error`: `slippers: ` and the error's one-line description.
    static func line(for error: any Error) -> String {
        let description =
            switch error {
            case let error as SyncRequestError: RequestFlags.line(for: error)
            case let error as any CustomStringConvertible: error.description
            default: error.localizedDescription
            }
        let oneLine = description.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        return "slippers: " + (oneLine.isEmpty ? "\(type(of: error))" : oneLine) + advice(for: error)
    }

    /// What to try, for the failures a command-line option fixes (a 401 or 403 wants credentials, a
    /// refused page request the list's parameters), or that none can fix.
    private static func advice(for error: any Error) -> String {
        guard let error = error as? NetworkError else { return "" }
        switch error.kind {
        case .http(let status, _) where status == 401 || status == 403:
            return " (give credentials with --header 'Authorization: Bearer TOKEN', or the header the API documents)"
        case .http(let status, _) where (status == 400 || status == 422) && error.method == "GET":
            return " (the server refused how a page was asked for: slippers detect URL shows how the list is read; "
                + "give its parameters with --page-param NAME, --page-size-param NAME, --cursor-param NAME or "
                + "--style, with --refresh)"
        case .http(405, _) where error.method == "GET":
            return " (the server does not list by GET here: a list asked for by POST is synced with --post-body "
                + "JSON, its page, offset or cursor found in the body, or with --graphql QUERY)"
        case .notAdvancing:
            return " (no option makes a server advance that names the page it served as the next: the list cannot "
                + "be copied past it)"
        default:
            return ""
        }
    }

    /// Writes the line for `error` to standard error.
    static func print(_ error: any Error) {
        StandardError.write(line(for: error))
    }

    /// Runs `body`; a failure other than an exit code or a usage error becomes one line on stderr and exit code 1.
    static func reporting(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error where isArgumentParserOutcome(error) {
            throw error
        } catch {
            print(error)
            throw ExitCode.failure
        }
    }

    /// Runs `body`; a failure other than an exit code or a usage error becomes one line on stderr and exit
    /// code 1, or the code of an ``IncompleteList`` (3).
    static func reportingAsync(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error where isArgumentParserOutcome(error) {
            throw error
        } catch let error as IncompleteList {
            if let summary = error.summary { Swift.print(summary) }
            print(error)
            throw incompleteListExitCode
        } catch {
            print(error)
            throw ExitCode.failure
        }
    }

    /// The exit code of an incomplete list: not 0 (verified), not 1 (an error).
    static let incompleteListExitCode = ExitCode(3)

    /// Whether `error` is one of swift-argument-parser's own outcomes (an exit
    /// code, a clean exit, a validation error), which keep their usual handling.
    private static func isArgumentParserOutcome(_ error: any Error) -> Bool {
        error is ExitCode || error is CleanExit || error is ValidationError
    }
}

/// A subcommand whose failures are reported as one line on stderr, `slippers: …`, with exit code 1.
protocol ReportingCommand: ParsableCommand {
    /// The command's work; what it throws, `run()` reports.
    func execute() throws
}

extension ReportingCommand {
    func run() throws {
        try ErrorReport.reporting(execute)
    }
}

/// A command whose failures are reported as one line, and whose work is asynchronous.
protocol AsyncReportingCommand: AsyncParsableCommand {
    /// The command's work; what it throws, `run()` reports.
    func execute() async throws
}

extension AsyncReportingCommand {
    func run() async throws {
        try await ErrorReport.reportingAsync(execute)
    }
}

/// Standard error, for messages that are not the command's data.
enum StandardError {
    /// Writes `line` and a newline; a failure to write is ignored, as there is nowhere left to report it.
    static func write(_ line: String) {
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }
}
