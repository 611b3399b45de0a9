import ArgumentParser
import Testing

@testable import SlippersCLI

@Suite struct OptionsTests {
    @Test func databaseComesFromTheOptionThenTheEnvironmentThenTheDefault() throws {
        let given = try DatabaseOptions.parse(["--db", "a.sqlite"])
        #expect(given.resolvedPath(environment: ["SLIPPERS_DB": "b.sqlite"]) == "a.sqlite")
        let none = try DatabaseOptions.parse([])
        #expect(none.resolvedPath(environment: ["SLIPPERS_DB": "b.sqlite"]) == "b.sqlite")
        #expect(none.resolvedPath(environment: [:]) == "slippers.sqlite")
    }

    @Test(arguments: [("90s", 90.0), ("30m", 1800.0), ("12h", 43_200.0), ("7d", 604_800.0), ("2w", 1_209_600.0)])
    func agesParseWithTheirUnits(text: String, seconds: Double) {
        #expect(Age(argument: text)?.seconds == seconds)
    }

    @Test(arguments: ["7", "d", "-1d", "7y", "1.5h", ""])
    func malformedAgesAreRejected(text: String) {
        #expect(Age(argument: text) == nil)
    }
}
