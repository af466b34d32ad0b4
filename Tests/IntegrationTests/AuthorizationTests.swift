import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// SO_PEERCRED at work: `widgetctl` run as `nobody` may read everything but a group's data, and change nothing;
/// `--foreground` is for root, the daemon's user and the kind's owners only; a group's data is for its readers and
/// writers.
@Suite("Authorization of unprivileged peers")
struct AuthorizationTests {
    @Test("nobody is refused reload, add, remove, configure and a group's data, and may still read the rest")
    func unprivilegedPeerIsRefusedChanges() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("plain", manifest: #"group = "shared""#, widget: """
            [widget.parameters.location]
            type = "string"
            default = "Paris"
            """)
        try world.start()
        let id = try world.add("plain")
        try world.waitUntilIdle(id)

        let refused = try world.widgetctl("reload", "--kind", "plain", as: .nobody)
        #expect(refused.status == 4, "\(refused)")
        #expect(refused.standardOutput.isEmpty)
        let message = refused.standardError.trimmingCharacters(in: .newlines)
        #expect(!message.contains("\n"), "one line: \(refused)")
        #expect(message.hasPrefix("widgetctl: permission denied: "), "\(refused)")
        #expect(message.contains("uid 65534"), "\(refused)")
        #expect(message.contains("kind plain"), "\(refused)")

        for arguments in [["add", "--kind", "plain"], ["remove", id], ["configure", id, "--param", "location=Rome"],
                          ["reload", id], ["reload", "--all"], ["data", "set", "shared", "city", "Rome"],
                          ["data", "list", "shared"], ["data", "get", "shared", "city"]] {
            let result = try world.startWidgetctl(arguments, as: .nobody).wait()
            #expect(result.status == 4, "\(result)")
            #expect(result.standardError.contains("permission denied"), "\(result)")
        }

        for arguments in [["list", "--json"], ["kinds", "--json"], ["status", "--json"], ["budget", id, "--json"],
                          ["timeline", id, "--json"], ["stack", "--json"]] {
            let result = try world.startWidgetctl(arguments, as: .nobody).wait()
            #expect(result.status == 0, "\(result)")
        }
        let listed = try world.startWidgetctl(["list", "--json"], as: .nobody).wait()
        #expect(try listed.decoded([WidgetSummary].self).map(\.id) == [id])
        #expect(try world.summary(id).configuration == ["location": .string("Paris")], "nothing changed")
        let timelineRuns = world.runs.filter { $0.request == "timeline" && $0.event == "start" }
        #expect(timelineRuns.map(\.reason) == ["initial"], "nothing ran")
        #expect(world.daemonLog.contains("refused"), "refusals are logged")
    }

    @Test("a kind's owner may add, configure, reload, write the group's data and remove its widgets, not others'")
    func ownersChangeTheirOwnKinds() throws {
        let world = try DaemonWorld(config: "minimum-interval = 0\n")
        try world.addScriptedKind("owned", manifest: """
            group = "owned-data"
            owner-users = ["nobody"]
            """, widget: """
            [widget.parameters.location]
            type = "string"
            default = "Paris"
            """)
        try world.addScriptedKind("other", manifest: #"group = "elsewhere""#)
        try world.start()
        let other = try world.add("other")
        try world.waitUntilIdle(other)

        let added = try world.widgetctl("add", "--kind", "owned", "--json", as: .nobody)
        #expect(added.status == 0, "\(added)")
        let id = try #require(try added.json().objectValue?["id"]?.stringValue)
        try world.waitUntilIdle(id)
        let configured = try world.widgetctl("configure", id, "--param", "location=Rome", as: .nobody)
        #expect(configured.status == 0, "\(configured)")
        #expect(try world.summary(id).configuration == ["location": .string("Rome")])
        try world.waitUntilIdle(id)
        let written = try world.widgetctl("data", "set", "owned-data", "city", "Rome", "--reload-kind", "owned",
                                            as: .nobody)
        #expect(written.status == 0, "\(written)")
        #expect(try world.widgetctlSucceeding("data", "get", "owned-data", "city").standardOutput == "Rome\n")

        for arguments in [["reload", other], ["reload", id, other], ["remove", other], ["add", "--kind", "other"],
                          ["data", "set", "elsewhere", "city", "Rome"]] {
            let result = try world.startWidgetctl(arguments, as: .nobody).wait()
            #expect(result.status == 4, "\(result)")
        }
        let undeclared = try world.widgetctl("data", "set", "nonesuch", "city", "Rome")
        #expect(undeclared.status != 0, "\(undeclared)")
        #expect(undeclared.standardError.contains("no provider manifest declares group nonesuch"), "\(undeclared)")
        let removed = try world.widgetctl("remove", id, as: .nobody)
        #expect(removed.status == 0, "\(removed)")
        #expect(try world.list().map(\.id) == [other])
    }

    @Test("a group's declared readers read it and may not write it; its writers write it; strangers do neither")
    func groupDataIsPrivateToItsReadersAndWriters() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("weather", manifest: """
            group = "weather"
            group-reader-users = ["nobody"]
            group-writer-users = ["root"]
            """)
        try world.addScriptedKind("secret", manifest: #"group = "secret""#)
        try world.start()
        _ = try world.widgetctlSucceeding("data", "set", "weather", "location", "Home: 12 Secret St")
        _ = try world.widgetctlSucceeding("data", "set", "secret", "pin", "1234")

        let read = try world.widgetctl("data", "get", "weather", "location", as: .nobody)
        #expect(read.status == 0 && read.standardOutput == "Home: 12 Secret St\n", "\(read)")
        let written = try world.widgetctl("data", "set", "weather", "location", "Elsewhere", as: .nobody)
        #expect(written.status == 4, "\(written)")
        #expect(written.standardError.contains("uid 65534 is not among group weather's writers"), "\(written)")
        for arguments in [["data", "get", "secret", "pin"], ["data", "list", "secret"],
                          ["data", "delete", "secret", "pin"]] {
            let refused = try world.startWidgetctl(arguments, as: .nobody).wait()
            #expect(refused.status == 4, "\(arguments): \(refused)")
            #expect(refused.standardError.contains("is not among group secret's"), "\(refused)")
            #expect(!refused.standardOutput.contains("1234"))
        }
        #expect(try world.widgetctlSucceeding("data", "get", "secret", "pin").standardOutput == "1234\n")
        #expect(try world.widgetctlSucceeding("data", "get", "weather", "location").standardOutput
                    == "Home: 12 Secret St\n")
    }

    @Test("--foreground is refused to a non-owner and granted to the kind's owner without spending budget")
    func foregroundIsForOwnersOnly() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("open")
        try world.addScriptedKind("owned", manifest: #"owner-users = ["nobody"]"#)
        try world.start()
        let open = try world.add("open")
        let owned = try world.add("owned")
        try world.waitUntilIdle(open)
        try world.waitUntilIdle(owned)

        let refused = try world.widgetctl("reload", "--kind", "open", "--foreground", as: .nobody)
        #expect(refused.status == 4, "\(refused)")
        #expect(refused.standardError.hasPrefix("widgetctl: permission denied: foreground reloads need"),
                "\(refused)")
        #expect(refused.standardError.contains("ownership of kind open"), "\(refused)")

        let granted = try world.widgetctl("reload", "--kind", "owned", "--foreground", "--json", as: .nobody)
        #expect(granted.status == 0, "\(granted)")
        #expect(try granted.decoded(ReloadMethod.Reply.self).decisions.map(\.decision) == [.ran])
        let ran = try eventually("the foreground run") { () -> WidgetSummary? in
            let widget = try world.summary(owned)
            return widget.lastReason == "foreground" && widget.lastOutcome == "success" ? widget : nil
        }
        #expect(ran.tokens == 12, "foreground runs are budget-exempt")

        let ownerBackground = try world.widgetctl("reload", "--kind", "owned", "--json", as: .nobody)
        #expect(ownerBackground.status == 0, "an owner may ask for budgeted reloads too: \(ownerBackground)")

        let root = try world.widgetctl("reload", "--kind", "open", "--foreground", "--json")
        #expect(root.status == 0, "\(root)")
        #expect(try root.decoded(ReloadMethod.Reply.self).decisions.map(\.decision) == [.ran])
    }
}
