import Foundation
import Testing
import WidgetProtocol
import WidgetProviders

private let path = "/etc/widget-scheduler/providers/weather.toml"

private func parse(_ text: String) -> Result<ProviderManifest, ManifestErrors> {
    ManifestParser.parse(text, path: path)
}

@Test("a full manifest parses every key, resolving a relative exec against the manifest's directory")
func fullManifestParses() throws {
    let manifest = try parse(#"""
        exec = ["bin/weather", "--metric"]
        timeout = 12.5
        memory-max = "64M"
        group = "weather"
        owner-users = ["alice"]
        owner-groups = ["staff", "weather-app"]
        group-reader-groups = ["staff"]
        group-writer-users = []
        images = true

        [[widget]]
        kind = "weather"
        display-name = "Weather"
        description = "Current conditions"
        families = ["systemSmall", "systemMedium"]
          [widget.parameters.location]
          type = "string"
          default = "Cupertino"
          options = "dynamic"
          [widget.parameters.days]
          type = "integer"
          title = "Days"
          default = 3
          [widget.parameters.units]
          type = "enum"
          default = "metric"
          options = [{ value = "metric", title = "Metric", subtitle = "°C" }, "imperial"]

        [[widget]]
        kind = "weather.radar"
        """#).get()
    #expect(manifest.path == path)
    #expect(manifest.exec == ["/etc/widget-scheduler/providers/bin/weather", "--metric"])
    #expect(manifest.timeout == 12.5)
    #expect(manifest.memoryMax == 64 * 1024 * 1024)
    #expect(manifest.group == "weather")
    #expect(manifest.ownerUsers == ["alice"])
    #expect(manifest.ownerGroups == ["staff", "weather-app"])
    #expect(manifest.groupReaders == ProviderManifest.Principals(users: [], groups: ["staff"]))
    #expect(manifest.groupWriters == ProviderManifest.Principals(users: [], groups: []), "declared: no one")
    #expect(manifest.savesImages)
    #expect(manifest.widgets.map(\.kind) == ["weather", "weather.radar"])
    let weather = try #require(manifest.widget(kind: "weather"))
    #expect(weather.displayName == "Weather")
    #expect(weather.description == "Current conditions")
    #expect(weather.families == ["systemSmall", "systemMedium"])
    #expect(weather.parameters.map(\.name) == ["days", "location", "units"])
    #expect(weather.parameter(named: "days") == ParameterSpec(
        name: "days", type: .integer, title: "Days", defaultValue: .integer(3)
    ))
    #expect(weather.parameter(named: "location")?.options == .dynamic)
    #expect(weather.parameter(named: "units")?.options == .fixed([
        ParameterOption(value: .string("metric"), title: "Metric", subtitle: "°C"),
        ParameterOption(value: .string("imperial"), title: "imperial"),
    ]))
    #expect(weather.defaultConfiguration == [
        "days": .integer(3), "location": .string("Cupertino"), "units": .string("metric"),
    ])
    let radar = try #require(manifest.widget(kind: "weather.radar"))
    #expect(radar.displayName == "weather.radar")
    #expect(radar.families == WidgetKindManifest.defaultFamilies)
    #expect(manifest.isOwned(byUser: "bob", groups: ["users", "staff"]))
    #expect(manifest.isOwned(byUser: "alice", groups: []))
    #expect(!manifest.isOwned(byUser: "bob", groups: ["users"]))
}

@Test("omitted keys take their defaults; exec may be one absolute path")
func defaultsApply() throws {
    let manifest = try parse(#"""
        exec = "/usr/lib/widget-providers/clock"
        [[widget]]
        kind = "clock"
        """#).get()
    #expect(manifest.exec == ["/usr/lib/widget-providers/clock"])
    #expect(manifest.timeout == 30)
    #expect(manifest.memoryMax == 128 * 1024 * 1024)
    #expect(manifest.group == nil)
    #expect(manifest.ownerUsers.isEmpty && manifest.ownerGroups.isEmpty)
    #expect(!manifest.savesImages, "no image directory unless the manifest asks for one")
}

@Test("memory-max accepts sizes with suffixes and plain byte counts", arguments: [
    (#""64M""#, 67_108_864), (#""1G""#, 1_073_741_824), (#""512k""#, 524_288), (#""1.5G""#, 1_610_612_736),
    ("1000000", 1_000_000), (#""2048""#, 2048),
])
func memorySizesParse(_ toml: String, _ bytes: Int) throws {
    let manifest = try parse("exec = \"/bin/true\"\nmemory-max = \(toml)\n[[widget]]\nkind = \"k\"\n").get()
    #expect(manifest.memoryMax == bytes)
}

@Test("tasks-max is a count of tasks, 64 when not given, and reaches the run's spec")
func tasksMaxParses() throws {
    let given = try parse("exec = \"/bin/true\"\ntasks-max = 16\n[[widget]]\nkind = \"k\"\n").get()
    #expect(given.tasksMax == 16)
    let omitted = try parse("exec = \"/bin/true\"\n[[widget]]\nkind = \"k\"\n").get()
    #expect(omitted.tasksMax == 64)
    let request = ProviderRequest(request: .placeholder, kind: "k", widget: nil,
                                  context: ProviderRequest.Context(now: Date(), isPreview: true))
    #expect(ProviderInvocation(manifest: given, request: request).processSpec.tasksMax == 16)
}

/// One row per manifest error: a manifest and the exact error it must produce.
struct ManifestErrorCase: CustomTestStringConvertible, Sendable {
    let toml: String
    let message: String
    var testDescription: String { message }
}

private let widget = "\n[[widget]]\nkind = \"weather\"\n"
private let exec = "exec = \"/bin/true\"\n"

private let manifestErrorCases: [ManifestErrorCase] = [
    .init(toml: "exec = [", message: "not valid TOML: "),
    .init(
        toml: widget,
        message: #""exec": expected the program to run, as a path or an array [path, arguments...], found nothing"#
    ),
    .init(toml: "exec = []" + widget, message: #""exec": expected a path or a non-empty array of strings, found []"#),
    .init(
        toml: "exec = [\"a\", 1]" + widget,
        message: #""exec": expected a path or a non-empty array of strings, found ["a",1]"#
    ),
    .init(toml: "exec = \"\"" + widget, message: #""exec": expected a program path, found an empty string"#),
    .init(
        toml: exec + "timeout = \"soon\"" + widget,
        message: #""timeout": expected a positive number of seconds, at most 253402300799.999, found "soon""#
    ),
    .init(
        toml: exec + "timeout = 0" + widget,
        message: #""timeout": expected a positive number of seconds, at most 253402300799.999, found 0"#
    ),
    .init(
        toml: exec + "timeout = 1e300" + widget,
        message: #""timeout": expected a positive number of seconds, at most 253402300799.999, found 1e+300"#
    ),
    .init(
        toml: exec + "memory-max = \"lots\"" + widget,
        message: #""memory-max": expected a size such as "64M", "1G" or a number of bytes, found "lots""#
    ),
    .init(
        toml: exec + "memory-max = -5" + widget,
        message: #""memory-max": expected a size such as "64M", "1G" or a number of bytes, found -5"#
    ),
    .init(
        toml: exec + "tasks-max = 0" + widget,
        message: #""tasks-max": expected a number of tasks from 1 to 4194304, found 0"#
    ),
    .init(
        toml: exec + "tasks-max = \"many\"" + widget,
        message: #""tasks-max": expected a number of tasks from 1 to 4194304, found "many""#
    ),
    .init(
        toml: exec + "tasks-max = 9223372036854775807" + widget,
        message: #""tasks-max": expected a number of tasks from 1 to 4194304, found 9223372036854775807"#
    ),
    .init(
        toml: exec + "group = \"../etc\"" + widget,
        message: #""group": expected a group name matching [a-z0-9][a-z0-9._-]*, found "../etc""#
    ),
    .init(
        toml: exec + "owner-users = 1000" + widget,
        message: #""owner-users": expected an array of user names, found 1000"#
    ),
    .init(
        toml: exec + "owner-groups = [\"\"]" + widget,
        message: #""owner-groups": expected an array of group names, found [""]"#
    ),
    .init(
        toml: exec + "timout = 5" + widget,
        message: #""timout": unknown key (expected one of: exec, timeout, "#
            + #"memory-max, tasks-max, group, owner-users, owner-groups, group-reader-users, group-reader-groups, "#
            + #"group-writer-users, group-writer-groups, assets, images, widget)"#
    ),
    .init(
        toml: exec + "images = \"yes\"" + widget,
        message: #""images": expected true (the provider saves images for its entries) or false, found "yes""#
    ),
    .init(
        toml: exec + "group-reader-users = [\"nobody\"]" + widget,
        message: #""group-reader-users": names the readers of a group, but the manifest has no group = "...""#
    ),
    .init(
        toml: exec + "group = \"g\"\ngroup-writer-groups = \"\"" + widget,
        message: #""group-writer-groups": expected an array of group names, found """#
    ),
    .init(toml: exec, message: #""widget": expected at least one [[widget]] table, found none"#),
    .init(
        toml: exec + "[widget]\nkind = \"a\"\n",
        message: #""widget": expected [[widget]] tables, found object {"kind":"a"}"#
    ),
    .init(
        toml: exec + "[[widget]]\ndisplay-name = \"x\"\n",
        message: #""widget[0].kind": expected a kind name matching [a-z0-9][a-z0-9._-]*, found nothing"#
    ),
    .init(
        toml: exec + widget + "display = \"x\"\n",
        message: #""widget[0].display": unknown key (expected one of: "#
            + #"kind, display-name, description, families, parameters, views)"#
    ),
    .init(
        toml: exec + "[[widget]]\nkind = \"Weather Now\"\n",
        message: #""widget[0].kind": expected a kind name matching [a-z0-9][a-z0-9._-]*, found "Weather Now""#
    ),
    .init(toml: exec + widget + widget, message: #""widget[1].kind": kind "weather" is already declared by widget[0]"#),
    .init(
        toml: exec + widget + "display-name = 3\n",
        message: #""widget[0].display-name": expected a string, found 3"#
    ),
    .init(
        toml: exec + widget + "families = []\n",
        message: #""widget[0].families": expected a non-empty array of family names such as "systemSmall", found []"#
    ),
    .init(
        toml: exec + widget + "parameters = 1\n",
        message: #""widget[0].parameters": expected a table of [widget.parameters.NAME] tables, found 1"#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.\"9lives\"]\ntype = \"string\"\n",
        message: #""widget[0].parameters.9lives": expected a parameter name matching [A-Za-z_][A-Za-z0-9_-]*"#
    ),
    .init(
        toml: exec + widget + "[widget.parameters]\nlocation = \"Paris\"\n",
        message: #""widget[0].parameters.location": expected a table with a "type", found "Paris""#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.location]\ndefault = \"Paris\"\n",
        message: #""widget[0].parameters.location.type": expected string | "#
            + #"integer | decimal | boolean | enum | date | url, found nothing"#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.location]\ntype = \"text\"\n",
        message: #""widget[0].parameters.location.type": expected string | "#
            + #"integer | decimal | boolean | enum | date | url, found "text""#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.location]\ntype = \"string\"\nhint = 1\n",
        message: #""widget[0].parameters.location.hint": unknown key (expected one of: type, title, default, options)"#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.location]\ntype = \"string\"\ntitle = false\n",
        message: #""widget[0].parameters.location.title": expected a string, found false"#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.days]\ntype = \"integer\"\ndefault = \"three\"\n",
        message: #""widget[0].parameters.days.default": expected an integer, found "three""#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.days]\ntype = \"integer\"\noptions = \"ask\"\n",
        message: #""widget[0].parameters.days.options": expected "#
            + #""dynamic" or a non-empty array of options, found "ask""#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.days]\ntype = \"integer\"\noptions = [1, \"two\"]\n",
        message: #""widget[0].parameters.days.options[1]": expected an integer, found "two""#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.days]\ntype = \"integer\"\noptions = [[1]]\n",
        message: #""widget[0].parameters.days.options[0]": expected a "#
            + #"value or a table {value, title, subtitle}, found [1]"#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.units]\ntype = \"enum\"\n",
        message: #""widget[0].parameters.units.options": expected a fixed list of the enum's values, found nothing"#
    ),
    .init(
        toml: exec + widget + "[widget.parameters.units]\ntype = \"enum\"\noptions = \"dynamic\"\n",
        message: #""widget[0].parameters.units.options": expected a fixed list for an enum, found "dynamic""#
    ),
    .init(
        toml: exec + widget
            + "[widget.parameters.units]\ntype = \"enum\"\noptions = [\"metric\"]\ndefault = \"kelvin\"\n",
        message: #""widget[0].parameters.units.default": expected one of: metric, found "kelvin""#
    ),
]

@Test("each invalid manifest is rejected with an error naming the file, the key and what was expected",
      arguments: manifestErrorCases)
func invalidManifestIsRejected(_ testCase: ManifestErrorCase) {
    switch parse(testCase.toml) {
    case .success(let manifest):
        Issue.record("accepted: \(manifest)")
    case .failure(let errors):
        #expect(errors.errors.count == 1, "\(errors)")
        let description = errors.errors.first?.description ?? ""
        #expect(description.hasPrefix("\(path): \(testCase.message)"), "\(description)")
        #expect(errors.errors.allSatisfy { $0.file == path })
    }
}

@Test("a TOML syntax error names the line")
func tomlSyntaxErrorNamesLine() throws {
    guard case .failure(let errors) = parse("exec = \"/bin/true\"\ntimeout = = 3\n") else {
        Issue.record("accepted")
        return
    }
    #expect(errors.description.contains("(line 2, column"))
}

@Test("every error of a manifest is reported, not only the first")
func allErrorsAreReported() {
    guard case .failure(let errors) = parse("timeout = \"soon\"\nmemory-max = \"lots\"\n") else {
        Issue.record("accepted")
        return
    }
    #expect(errors.errors.compactMap(\.key) == ["exec", "timeout", "memory-max", "widget"])
}

@Test("a relative exec is resolved lexically, also for a manifest named by a relative path", arguments: [
    ("/etc/providers/a.toml", "../bin/./w", "/etc/bin/w"),
    ("providers/a.toml", "./w", FileManager.default.currentDirectoryPath + "/providers/w"),
    ("a.toml", "w", FileManager.default.currentDirectoryPath + "/w"),
])
func relativeExecIsResolved(_ manifestPath: String, _ exec: String, _ expected: String) throws {
    let manifest = try ManifestParser.parse("exec = \"\(exec)\"\n[[widget]]\nkind = \"k\"\n", path: manifestPath).get()
    #expect(manifest.exec == [expected])
}

@Test("a parameter with an invalid declaration reports that error only, not its consequences")
func invalidParameterReportsOneError() {
    let toml = "exec = \"/bin/true\"\n[[widget]]\nkind = \"k\"\n"
        + "[widget.parameters.units]\ntype = \"enum\"\ndefault = \"x\"\n"
    guard case .failure(let errors) = ManifestParser.parse(toml, path: "/m.toml") else {
        Issue.record("accepted")
        return
    }
    #expect(errors.errors.compactMap(\.key) == ["widget[0].parameters.units.options"])
}
