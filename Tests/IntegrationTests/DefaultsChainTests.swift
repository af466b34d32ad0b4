import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// `widgetctl add` without parameters: the provider's `defaults` answer first, then the manifest's defaults, then a
/// clear error naming the parameter that still has no value. Never a blank widget.
@Suite("The defaults chain of add")
struct DefaultsChainTests {
    /// What the provider answers to `defaults`, and the configuration the new widget must get.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var providerDefaults: [String: JSONValue]?
        var expected: [String: JSONValue]

        var testDescription: String { name }
    }

    static let manifest = """
        [widget.parameters.city]
        type = "string"
        default = "Paris"
        [widget.parameters.units]
        type = "enum"
        default = "metric"
        options = ["metric", "imperial"]
        """

    static let cases: [Case] = [
        Case(name: "the provider's answer wins over the manifest", providerDefaults: ["city": .string("Lyon")],
             expected: ["city": .string("Lyon"), "units": .string("metric")]),
        Case(name: "the provider answers every parameter",
             providerDefaults: ["city": .string("Oslo"), "units": .string("imperial")],
             expected: ["city": .string("Oslo"), "units": .string("imperial")]),
        Case(name: "a failing provider leaves the manifest's defaults", providerDefaults: nil,
             expected: ["city": .string("Paris"), "units": .string("metric")]),
        Case(name: "an invalid provider value falls back to the manifest",
             providerDefaults: ["units": .string("kelvin")],
             expected: ["city": .string("Paris"), "units": .string("metric")]),
    ]

    @Test("a new widget's configuration comes from the provider's defaults, then the manifest", arguments: cases)
    func providerThenManifest(_ chain: Case) throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("weather", widget: Self.manifest,
                                    behaviour: ScriptedProvider.Behaviour(defaults: chain.providerDefaults))
        try world.start()
        let id = try world.add("weather")
        let widget = try world.waitUntilIdle(id)
        #expect(widget.configuration == chain.expected)
        #expect(widget.currentEntry?.content.objectValue?["configuration"] == .object(chain.expected),
                "the initial run got the full configuration")
        #expect(world.runs.filter { $0.event == "start" }.map(\.request) == ["defaults", "timeline"])
    }

    @Test("given parameters are not asked of the provider, and a full set skips the defaults request")
    func givenParametersWin() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("weather", widget: Self.manifest,
                                    behaviour: ScriptedProvider.Behaviour(defaults: ["city": .string("Lyon")]))
        try world.start()
        let partial = try world.add("weather", "units=imperial")
        #expect(try world.waitUntilIdle(partial).configuration
            == ["city": .string("Lyon"), "units": .string("imperial")])
        let full = try world.add("weather", "city=Rome", "units=metric")
        #expect(try world.waitUntilIdle(full).configuration == ["city": .string("Rome"), "units": .string("metric")])
        #expect(world.runs.filter { $0.request == "defaults" && $0.event == "start" }.count == 1)
    }

    @Test("a parameter neither the provider nor the manifest fills is an error naming it; nothing is added")
    func missingEverywhereIsAnError() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("keyed", widget: """
            [widget.parameters.city]
            type = "string"
            default = "Paris"
            [widget.parameters.apikey]
            type = "string"
            """, behaviour: ScriptedProvider.Behaviour(defaults: ["city": .string("Lyon")]))
        try world.start()

        let refused = try world.widgetctl("add", "--kind", "keyed")
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.hasPrefix("widgetctl: invalid parameter \"apikey\": no value given"),
                "\(refused)")
        #expect(refused.standardError.contains("keyed.toml"), "the manifest is named: \(refused)")
        #expect(try world.list().isEmpty, "never a blank widget")

        let id = try world.add("keyed", "apikey=secret")
        #expect(try world.waitUntilIdle(id).configuration == ["city": .string("Lyon"), "apikey": .string("secret")])
    }

    @Test("while add waits for a slow defaults answer, other clients are served")
    func slowDefaultsDoNotHoldOthersUp() throws {
        let world = try DaemonWorld()
        try world.addScriptedKind("weather", widget: Self.manifest,
                                    behaviour: ScriptedProvider.Behaviour(sleep: 1.5, defaults: [:]))
        try world.start()
        let adding = try world.startWidgetctl(["add", "--kind", "weather"])
        _ = try eventually("the defaults request to start") {
            world.runs.contains { $0.request == "defaults" && $0.event == "start" } ? true : nil
        }
        let listed = try world.widgetctlSucceeding("list", "--json")
        let status = try world.widgetctlSucceeding("status", "--json").decoded(StatusMethod.Reply.self)
        #expect(adding.process.isRunning, "list and status were answered while add still waited")
        #expect(try listed.decoded([WidgetSummary].self).isEmpty)
        #expect(status.widgets == 0)
        let added = adding.wait()
        #expect(added.status == 0, "\(added)")
        #expect(added.standardOutput == "w1\n")
    }
}
