import ArgumentParser
import Testing

@testable import SlippersCLI

@Suite struct HelpDefaultsTests {
    @Test func everyOptionStatesItsDefaultOnce() throws {
        for command in SlippersCommand.configuration.subcommands {
            let help = command.helpMessage(columns: 400)
            for line in help.split(separator: "\n") {
                let defaults = line.ranges(of: "default").count
                #expect(defaults <= 1, "\(command._commandName): \(line)")
            }
        }
    }

    @Test func detectAndSyncTakeTheSameOptionsThatDescribeAList() throws {
        let options = [
            "--style", "pageNumber", "--items-path", "data", "--id-field", "uuid", "--page-size", "20", "--page-param",
            "current_page", "--page-size-param", "page_size", "--total-path", "meta.total",
        ]
        let sync = try SlippersCommand.Sync.parse(["https://api.example.com/posts"] + options)
        let detect = try SlippersCommand.Detect.parse(["https://api.example.com/posts"] + options)
        #expect(sync.shape.pageParameter == "current_page")
        #expect(detect.shape.pageParameter == "current_page")
        #expect(sync.shape.totalPath == detect.shape.totalPath)
        let cursor = ["https://api.example.com/posts", "--cursor-path", "cursor", "--cursor-param", "after"]
        #expect(try SlippersCommand.Detect.parse(cursor).posted.responseCursorPath == "cursor")
        #expect(try SlippersCommand.Sync.parse(cursor).shape.cursorParameter == "after")
    }
}
