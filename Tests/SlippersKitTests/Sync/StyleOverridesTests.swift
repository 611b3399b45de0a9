import Slippers
import SlippersKit
import SlippersNetworking
import Testing

/// What the options a person gives make of a detected style.
@Suite struct StyleOverridesTests {
    private let detected = PaginationStyle(kind: .pageNumber(parameter: "page", firstPage: 1))

    @Test func aPageParameterWithForcedOffsetsNamesTheOffsetsParameter() {
        let overrides = StyleOverrides(
            style: PaginationStyle(kind: .offset(parameter: "offset")), pageParameter: "skip")
        #expect(overrides.applied(to: detected).kind == .offset(parameter: "skip"))
    }

    @Test func aPageParameterAloneNumbersPages() {
        let overrides = StyleOverrides(pageParameter: "current_page")
        #expect(overrides.applied(to: detected).kind == .pageNumber(parameter: "current_page", firstPage: 1))
    }
}
