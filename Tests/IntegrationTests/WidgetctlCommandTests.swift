import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerCore
import WidgetSchedulerTestKit

/// Every `widgetctl` command once against the real daemon, in its human form and with `--json`, with the exit
/// statuses of its common failures.
@Suite("Every widgetctl command")
struct WidgetctlCommandTests {
    static let weatherManifest = """
        [widget.parameters.city]
        type = "string"
        default = "Paris"
        options = "dynamic"
        [widget.parameters.units]
        type = "enum"
        default = "metric"
        options = [{ value = "metric", title = "Metric" }, { value = "imperial", title = "Imperial" }]
        """

    @Test("kinds and status describe the manifests and the daemon")
    func kindsAndStatus() throws {
        let world = try DaemonWorld(config: "minimum-interval = 120\n")
        try world.addScriptedKind("weather", manifest: #"group = "weather""#, widget: """
            display-name = "Weather"
            families = ["systemSmall", "systemMedium"]
            \(Self.weatherManifest)
            """)
        try world.start()

        let kinds = try world.widgetctlSucceeding("kinds", "--json").decoded([KindsMethod.Kind].self)
        let weather = try #require(kinds.first { $0.kind == "weather" })
        #expect(weather.displayName == "Weather")
        #expect(weather.families == ["systemSmall", "systemMedium"])
        #expect(weather.group == "weather")
        #expect(weather.parameters.map(\.name).sorted() == ["city", "units"])
        #expect(weather.parameters.first { $0.name == "city" }?.dynamicOptions == true)
        #expect(weather.parameters.first { $0.name == "units" }?.defaultValue == .string("metric"))
        #expect(weather.widgets == 0)
        let human = try world.widgetctlSucceeding("kinds")
        #expect(human.standardOutput.hasPrefix("KIND"), "\(human)")
        #expect(human.standardOutput.contains("weather"), "\(human)")

        let status = try world.widgetctlSucceeding("status", "--json").decoded(StatusMethod.Reply.self)
        #expect(status.widgets == 0)
        #expect(status.kinds == 1)
        #expect(status.settings.minimumInterval == 120)
        #expect(status.pid == Int(world.daemonPID))
        #expect(status.socket == world.socketPath)
        let statusText = try world.widgetctlSucceeding("status")
        #expect(!statusText.standardOutput.isEmpty)
    }

    @Test("add, configure, timeline and remove a widget; unknown kinds and widgets exit 5, bad values exit 2")
    func widgetLifecycle() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("weather", widget: """
            families = ["systemSmall", "systemMedium"]
            \(Self.weatherManifest)
            """, behaviour: ScriptedProvider.Behaviour(entryOffsets: [-60, 3_600, 7_200], policy: .string("atEnd")))
        try world.start()

        let plain = try world.widgetctlSucceeding("add", "--kind", "weather", "--family", "systemMedium",
                                                    "--param", "city=Oslo")
        let id = plain.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id == "w1", "the human form prints the id alone")
        let added = try world.waitUntilIdle(id)
        #expect(added.family == "systemMedium")
        #expect(added.configuration == ["city": .string("Oslo"), "units": .string("metric")])
        #expect(added.lastReason == "initial")

        let configured = try world.widgetctlSucceeding("configure", id, "--param", "units=imperial", "--json")
        #expect(try configured.json().objectValue?["decision"]?.objectValue?["decision"] == .string("ran"),
                "\(configured)")
        let reconfigured = try eventually("the configuration run") { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.lastReason == "configuration" && widget.state != "running" ? widget : nil
        }
        #expect(reconfigured.configuration == ["city": .string("Oslo"), "units": .string("imperial")])
        #expect(reconfigured.currentEntry?.content.objectValue?["configuration"]
            == .object(["city": .string("Oslo"), "units": .string("imperial")]), "the provider saw the change")

        let timeline = try world.widgetctlSucceeding("timeline", id, "--json").decoded(TimelineMethod.Reply.self)
        #expect(timeline.widget == id)
        #expect(timeline.kind == "weather")
        #expect(timeline.policy?.policy == "atEnd")
        #expect(timeline.entries.count == 3)
        #expect(timeline.entries.map(\.current) == [true, false, false])
        #expect(timeline.entries.map { $0.content.objectValue?["n"] } == [.integer(0), .integer(1), .integer(2)])
        let timelineText = try world.widgetctlSucceeding("timeline", id)
        #expect(timelineText.standardOutput.contains("DATE"), "\(timelineText)")

        let badEnum = try world.widgetctl("configure", id, "--param", "units=kelvin")
        #expect(badEnum.status == 2, "\(badEnum)")
        #expect(badEnum.standardError.contains("\"units\""), "\(badEnum)")
        let badFamily = try world.widgetctl("add", "--kind", "weather", "--family", "systemLarge")
        #expect(badFamily.status == 2, "\(badFamily)")
        #expect(badFamily.standardError.contains("family"), "\(badFamily)")
        let unknownKind = try world.widgetctl("add", "--kind", "nonesuch")
        #expect(unknownKind.status == 5, "\(unknownKind)")
        #expect(unknownKind.standardError == "widgetctl: unknown kind \"nonesuch\"\n", "\(unknownKind)")
        let unknownParameter = try world.widgetctl("add", "--kind", "weather", "--param", "colour=red")
        #expect(unknownParameter.status == 2, "\(unknownParameter)")
        #expect(unknownParameter.standardError.contains("colour"), "\(unknownParameter)")
        let badArguments = try world.widgetctl("reload", "--all", "w1")
        #expect(badArguments.status == 64, "\(badArguments)")

        let listed = try world.widgetctlSucceeding("list")
        #expect(listed.standardOutput.hasPrefix("NEXT"), "\(listed)")
        #expect(listed.standardOutput.contains(id), "\(listed)")

        let removed = try world.widgetctlSucceeding("remove", id)
        #expect(removed.standardError.isEmpty)
        #expect(try world.list().isEmpty)
        let again = try world.widgetctl("remove", id)
        #expect(again.status == 5, "\(again)")
        #expect(again.standardError == "widgetctl: unknown widget \"\(id)\"\n", "\(again)")
        let gone = try world.widgetctl("timeline", id)
        #expect(gone.status == 5, "\(gone)")
    }

    @Test("list --json has exactly the documented fields, null when absent")
    func listJSONShape() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("plain")
        try world.start()
        let id = try world.add("plain")
        try world.waitUntilIdle(id)
        let document = try world.widgetctlSucceeding("list", "--json").json()
        guard case .array(let widgets) = document, let widget = widgets.first?.objectValue else {
            Issue.record("not an array of objects: \(document)")
            return
        }
        #expect(Set(widget.keys) == ["id", "kind", "family", "configuration", "state", "lastReload", "lastReason",
                                     "lastOutcome", "nextReload", "nextReason", "tokens", "currentEntry"])
        #expect(widget["nextReload"] == .null, "policy never: nothing planned, written as null")
        #expect(Set(widget["currentEntry"]?.objectValue?.keys ?? [:].keys) == ["date", "content"])
        let lastReload = widget["lastReload"]?.stringValue ?? ""
        #expect((try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(lastReload)) != nil,
                "RFC 3339 dates: \(lastReload)")
    }

    @Test("options lists a fixed list from the manifest and a dynamic one from the provider, filtered by search")
    func fixedAndDynamicOptions() throws {
        let world = try DaemonWorld()
        let cities: [JSONValue] = [
            .object(["value": .string("paris"), "title": .string("Paris")]),
            .object(["value": .string("parma"), "title": .string("Parma")]),
            .object(["value": .string("oslo"), "title": .string("Oslo")]),
        ]
        try world.addScriptedKind("weather", widget: Self.weatherManifest,
                                    behaviour: ScriptedProvider.Behaviour(options: cities))
        try world.start()

        let fixed = try world.widgetctlSucceeding("options", "--kind", "weather", "--param", "units", "--json")
            .decoded(OptionsMethod.Reply.self)
        #expect(fixed.source == .manifest)
        #expect(fixed.options.map(\.value) == [.string("metric"), .string("imperial")])
        #expect(world.runs.allSatisfy { $0.request != "options" }, "a fixed list needs no provider")

        let dynamic = try world.widgetctlSucceeding("options", "--kind", "weather", "--param", "city", "--json")
            .decoded(OptionsMethod.Reply.self)
        #expect(dynamic.source == .provider)
        #expect(dynamic.options.map(\.value) == [.string("paris"), .string("parma"), .string("oslo")])
        let searched = try world.widgetctlSucceeding("options", "--kind", "weather", "--param", "city",
                                                       "--search", "par", "--json").decoded(OptionsMethod.Reply.self)
        #expect(searched.options.map(\.title) == ["Paris", "Parma"])
        let human = try world.widgetctlSucceeding("options", "--kind", "weather", "--param", "city")
        #expect(human.standardOutput.hasPrefix("VALUE"), "\(human)")
        #expect(human.standardOutput.contains("Oslo"), "\(human)")

        let unknown = try world.widgetctl("options", "--kind", "weather", "--param", "colour")
        #expect(unknown.status == 2, "\(unknown)")
        try world.setBehaviour(ScriptedProvider.Behaviour(exitStatus: 1), for: "weather")
        let failing = try world.widgetctl("options", "--kind", "weather", "--param", "city")
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.standardError.contains("provider of kind \"weather\" failed"), "\(failing)")
    }

    @Test("budget and stack: the ledger of each widget, and widgets ordered by relevance")
    func budgetAndStack() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("low", behaviour: ScriptedProvider.Behaviour(relevance: [1]))
        try world.addScriptedKind("high", behaviour: ScriptedProvider.Behaviour(relevance: [5]))
        try world.addScriptedKind("none")
        try world.start()
        let low = try world.add("low")
        let high = try world.add("high")
        let none = try world.add("none")
        for id in [low, high, none] { try world.waitUntilIdle(id) }

        let stack = try world.widgetctlSucceeding("stack", "--json").decoded([StackMethod.Item].self)
        #expect(stack.map(\.widget).last == none, "a widget without relevance comes last: \(stack)")
        #expect(stack.first { $0.widget == high }?.score == 5)
        #expect(stack.first { $0.widget == none }?.relevant == false)
        let chosen = try world.widgetctlSucceeding("stack", low, none, "--json").decoded([StackMethod.Item].self)
        #expect(Set(chosen.map(\.widget)) == [low, none])
        let stackText = try world.widgetctlSucceeding("stack")
        #expect(stackText.standardOutput.contains("WIDGET"), "\(stackText)")

        let ledgers = try world.widgetctlSucceeding("budget", "--json").decoded([BudgetMethod.Ledger].self)
        #expect(ledgers.map(\.widget) == [low, high, none])
        for ledger in ledgers {
            #expect(ledger.tokens == 12)
            #expect(ledger.capacity == 12)
            #expect(ledger.minimumInterval == 300)
            #expect(ledger.exemptRuns24h == 1)
            #expect(ledger.budgetedRuns24h == 0)
            #expect(ledger.runs.map(\.reason) == ["initial"])
            #expect(ledger.floorLiftsAt != nil, "the initial run starts the floor")
        }
        let byKind = try world.widgetctlSucceeding("budget", "--kind", "high", "--json")
            .decoded([BudgetMethod.Ledger].self)
        #expect(byKind.map(\.widget) == [high])
        let budgetText = try world.widgetctlSucceeding("budget", low)
        #expect(budgetText.standardOutput.contains(low), "\(budgetText)")
        let unknown = try world.widgetctl("budget", "w99")
        #expect(unknown.status == 5, "\(unknown)")
    }

    @Test("data set, get, list and delete; set --reload-kind reloads the kind, whose provider reads the value")
    func sharedGroupData() throws {
        let world = try DaemonWorld(config: "minimum-interval = 0\n")
        try world.addScriptedKind("weather", manifest: #"group = "weather""#)
        try world.start()
        let id = try world.add("weather")
        let before = try world.waitUntilIdle(id)
        #expect(before.currentEntry?.content.objectValue?["data"] == .object([:]))

        let set = try world.widgetctlSucceeding("data", "set", "weather", "city", "Lyon", "--reload-kind",
                                                  "weather", "--json").decoded(DataSetMethod.Reply.self)
        #expect(set.decisions.map(\.widget) == [id])
        #expect(set.decisions.map(\.decision) == [.ran])
        let reloaded = try eventually("the reload after the write") { () -> WidgetSummary? in
            let widget = try world.summary(id)
            return widget.lastReason == "explicit" && widget.state != "running" ? widget : nil
        }
        #expect(reloaded.currentEntry?.content.objectValue?["data"] == .object(["city": .string("Lyon")]),
                "the provider read the new value from its data directory")

        let value = try world.widgetctlSucceeding("data", "get", "weather", "city")
        #expect(value.standardOutput == "Lyon\n")
        let item = try world.widgetctlSucceeding("data", "get", "weather", "city", "--json").decoded(DataItem.self)
        #expect(item.key == "city")
        #expect(item.value == "Lyon")
        #expect(abs(item.updatedAt.timeIntervalSince(set.updatedAt)) < 0.002)
        _ = try world.widgetctlSucceeding("data", "set", "weather", "days", "3")
        let items = try world.widgetctlSucceeding("data", "list", "weather", "--json").decoded([DataItem].self)
        #expect(items.map(\.key).sorted() == ["city", "days"])
        let listText = try world.widgetctlSucceeding("data", "list", "weather")
        #expect(listText.standardOutput.contains("Lyon"), "\(listText)")

        _ = try world.widgetctlSucceeding("data", "delete", "weather", "city")
        let missing = try world.widgetctl("data", "get", "weather", "city")
        #expect(missing.status == 5, "\(missing)")
        #expect(missing.standardError == "widgetctl: no value for key \"city\" in group \"weather\"\n", "\(missing)")
        let badName = try world.widgetctl("data", "set", "weather", "../escape", "x")
        #expect(badName.status == 2, "\(badName)")
        let badKind = try world.widgetctl("data", "set", "weather", "city", "Rome", "--reload-kind", "nonesuch")
        #expect(badKind.status == 5, "\(badKind)")
    }

    @Test("watch prints entry changes, run results and decisions in its human form")
    func watchHumanForm() throws {
        let world = try DaemonWorld(config: #"developer-kinds = ["plain"]"# + "\n")
        try world.addScriptedKind("plain")
        try world.start()
        let id = try world.add("plain")
        try world.waitUntilIdle(id)
        let watch = try world.streamWidgetctl(["watch", "--kind", "plain"])
        let lines = try eventually("decision, run and entry lines", timeout: 10, interval: 0.2) { () -> [String]? in
            let lines = watch.lines.map(\.text)
            let wanted = ["\(id): ran at", "\(id) (plain) run (explicit) finished: success", "\(id) (plain) entry {"]
            if wanted.allSatisfy({ part in lines.contains { $0.contains(part) } }) { return lines }
            _ = try world.widgetctlSucceeding("reload", id)
            return nil
        }
        #expect(lines.allSatisfy { $0.range(of: #"^\d\d:\d\d:\d\d "#, options: .regularExpression) != nil },
                "each line starts with the time: \(lines)")
        let unknown = try world.widgetctl("watch", "w42")
        #expect(unknown.status == 5, "\(unknown)")
        let unknownKind = try world.startWidgetctl(["watch", "--kind", "nonesuch"]).wait(timeout: 5)
        #expect(unknownKind.status == 5, "\(unknownKind)")
        #expect(unknownKind.standardError == "widgetctl: unknown kind \"nonesuch\"\n", "\(unknownKind)")
    }

    @Test("without a daemon every command exits 3 with one line naming the socket")
    func noDaemon() throws {
        let world = try DaemonWorld()
        let result = try world.widgetctl("list")
        #expect(result.status == 3, "\(result)")
        #expect(result.standardError.hasPrefix("widgetctl: "), "\(result)")
        #expect(result.standardError.contains(world.socketPath), "\(result)")
        #expect(result.standardError.filter { $0 == "\n" }.count == 1, "\(result)")
    }
}
