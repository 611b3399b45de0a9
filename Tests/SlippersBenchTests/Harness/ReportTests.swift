import Foundation
import Testing

@testable import SlippersBench

@Suite struct ReportTests {
    private let report = Report(
        machine: .current(),
        figures: [
            Figure(
                name: "serve a cached page", unit: .microseconds, value: 400, baseline: "(c)",
                baselineValue: 800, target: .ratioAtMost(1.0), spread: 390...420),
            Figure(name: "cold start", unit: .milliseconds, value: 12, target: .valueAtMost(50)),
        ])

    private func decoded() throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
    }

    @Test func jsonHasTheIssuesSchemaExactly() throws {
        let json = try decoded()
        #expect(Set(json.keys) == ["machine", "figures"])
        let figures = try #require(json["figures"] as? [[String: Any]])
        #expect(figures.count == 2)
        for figure in figures {
            #expect(
                Set(figure.keys) == ["name", "unit", "value", "baseline", "baseline_value", "ratio", "target", "met"])
        }
        #expect(figures[0]["ratio"] as? Double == 0.5)
        #expect(figures[0]["met"] as? Bool == true)
        #expect(figures[0]["target"] as? String == "<= 1.0x (c)")
        #expect(figures[1]["baseline"] is NSNull)
        #expect(figures[1]["ratio"] is NSNull)
        #expect(figures[1]["met"] as? Bool == true)
    }

    @Test func machineTellsWhatTheNumbersRanOn() throws {
        let machine = try #require(try decoded()["machine"] as? [String: Any])
        #expect(
            Set(machine.keys) == ["cpu", "cores", "memory_bytes", "os", "swift", "build", "sqlite", "date"])
        #expect((machine["cores"] as? Int ?? 0) >= 1)
        #expect((machine["sqlite"] as? String)?.hasPrefix("3.") == true)
    }

    @Test func tableAlignsFiguresAndShowsVerdicts() {
        let lines = report.table().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("machine: "))
        #expect(lines[2].hasPrefix("figure"))
        #expect(lines[4].contains("400 µs") && lines[4].contains("0.50x") && lines[4].hasSuffix("yes"))
        #expect(lines[5].contains("12.0 ms") && lines[5].contains("<= 50 ms"))
    }
}
