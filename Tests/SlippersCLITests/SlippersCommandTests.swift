import Testing

@Suite struct SlippersCommandTests {
    @Test func helpListsTheSubcommandsAndExitsZero() throws {
        let outcome = try BuiltBinary.slippers.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("demo"))
    }

    @Test func anUnknownSubcommandIsAUsageError() throws {
        let outcome = try BuiltBinary.slippers.run(["frobnicate"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("frobnicate"))
    }
}
