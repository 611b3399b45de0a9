import Testing

@Suite struct SlippersCommandTests {
    @Test func helpListsTheSubcommandsAndExitsZero() async throws {
        let outcome = try await BuiltBinary.slippers.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("demo"))
    }

    @Test func anUnknownSubcommandIsAUsageError() async throws {
        let outcome = try await BuiltBinary.slippers.run(["frobnicate"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("frobnicate"))
    }
}
