import ArgumentParser
import Testing
import WidgetProtocol
@testable import widgetctl

@Suite struct WidgetCtlArgumentTests {
    @Test(arguments: [
        ["reload"],
        ["reload", "--kind", "weather", "--all"],
        ["reload", "--kind", "weather", "w1"],
        ["reload", "--all", "w1"],
        ["add"],
        ["add", "--kind", "weather", "--param", "city"],
        ["configure", "w1"],
        ["budget", "w1", "--kind", "weather"],
        ["watch", "w1", "--kind", "weather"],
        ["options", "--kind", "weather"],
        ["data", "set", "group", "key"],
        ["remove"],
        ["list", "--bogus"],
    ])
    func badArgumentsAreRejectedBeforeConnecting(arguments: [String]) {
        #expect(throws: (any Error).self) { try WidgetCtl.parseAsRoot(arguments) }
    }

    @Test func argumentErrorNamesTheArgument() {
        do {
            _ = try WidgetCtl.parseAsRoot(["add", "--kind", "weather", "--param", "city"])
            Issue.record("accepted a bad --param")
        } catch {
            #expect(WidgetCtl.message(for: error).contains("--param \"city\" must be NAME=VALUE"))
            #expect(WidgetCtl.exitCode(for: error) == .validationFailure)
        }
    }

    @Test(arguments: [
        (["reload", "--kind", "weather"], ReloadMethod.Parameters(kind: "weather")),
        (["reload", "--all", "--foreground"], ReloadMethod.Parameters(all: true, foreground: true)),
        (["reload", "w1", "w2"], ReloadMethod.Parameters(widgets: ["w1", "w2"])),
    ])
    func reloadFormsBecomeOneTarget(arguments: [String], parameters: ReloadMethod.Parameters) throws {
        let command = try #require(try WidgetCtl.parseAsRoot(arguments) as? ReloadCommand)
        #expect(command.request == parameters)
        #expect(throws: Never.self) { try command.request.target() }
    }

    @Test func socketOptionIsAcceptedByEveryCommand() throws {
        for arguments in [["list"], ["status"], ["kinds"], ["timeline", "w1"], ["stack"], ["data", "list", "g"]] {
            #expect(throws: Never.self) { try WidgetCtl.parseAsRoot(arguments + ["--socket", "/tmp/x.sock"]) }
        }
    }
}
