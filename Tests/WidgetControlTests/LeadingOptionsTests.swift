import Testing
import WidgetControl

/// Connection options written before the command reach it.
struct LeadingOptionsTests {
    @Test("leading connection options move after the command", arguments: [
        (["--socket", "/s", "status"], ["status", "--socket", "/s"]),
        (["--socket=/s", "status", "--json"], ["status", "--json", "--socket=/s"]),
        (["--socket", "/s", "data", "set", "g", "k", "--", "-v"],
         ["data", "set", "g", "k", "--socket", "/s", "--", "-v"]),
        (["status", "--socket", "/s"], ["status", "--socket", "/s"]),
        (["--socket"], ["--socket"]),
        (["--socket", "/s"], ["--socket", "/s"]),
        (["--version"], ["--version"]),
        ([], []),
    ] as [([String], [String])])
    func moved(_ arguments: [String], _ expected: [String]) {
        #expect(LeadingOptions.movedAfterCommand(arguments) == expected)
    }
}
