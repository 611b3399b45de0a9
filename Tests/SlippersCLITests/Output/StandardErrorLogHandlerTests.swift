import Logging
import Testing

@testable import SlippersCLI

@Suite struct StandardErrorLogHandlerTests {
    @Test func aLineHoldsTheLevelTheMessageAndTheMetadataSortedByKey() {
        let event = LogEvent(
            level: .debug, message: "HTTP exchange", metadata: ["status": "200", "method": "GET"], source: "test",
            file: #fileID, function: #function, line: #line)
        #expect(StandardErrorLogHandler.line(event) == "slippers: debug: HTTP exchange method=GET status=200")
    }
}
