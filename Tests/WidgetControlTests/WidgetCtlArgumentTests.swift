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
        ["show", "w1", "--family", "huge"],
        ["watch", "--format", "waybar"],
        ["watch", "w1", "--json", "--format", "text"],
        ["watch", "w1", "--family", "systemSmall"],
    ])
    func badArgumentsAreRejectedBeforeConnecting(arguments: [String]) {
        #expect(throws: (any Error).self) { try WidgetCtl.parseChecked(arguments) }
    }

    @Test(arguments: [
        ["reload", "--frobnicate"],
        ["reload", "--kind", "weather", "--all", "--frobnicate"],
        ["configure", "w1", "--frobnicate"],
        ["budget", "w1", "--kind", "weather", "--frobnicate"],
        ["watch", "w1", "--kind", "weather", "--frobnicate"],
        ["show", "w1", "--family", "huge", "--frobnicate"],
        ["add", "--kind", "weather", "--param", "city", "--frobnicate"],
    ])
    func unknownOptionIsReportedBeforeHowArgumentsCombine(arguments: [String]) {
        do {
            _ = try WidgetCtl.parseChecked(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(WidgetCtl.message(for: error).contains("Unknown option '--frobnicate'"))
        }
    }

    @Test func argumentErrorNamesTheArgument() {
        do {
            _ = try WidgetCtl.parseChecked(["add", "--kind", "weather", "--param", "city"])
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
        let command = try #require(try WidgetCtl.parseChecked(arguments) as? ReloadCommand)
        #expect(command.request == parameters)
        #expect(throws: Never.self) { try command.request.target() }
    }

    @Test func socketOptionIsAcceptedByEveryCommand() throws {
        for arguments in [["list"], ["status"], ["kinds"], ["timeline", "w1"], ["stack"], ["data", "list", "g"]] {
            #expect(throws: Never.self) { try WidgetCtl.parseChecked(arguments + ["--socket", "/tmp/x.sock"]) }
            #expect(throws: Never.self) { try WidgetCtl.parseChecked(["--socket", "/tmp/x.sock"] + arguments) }
        }
    }
}
