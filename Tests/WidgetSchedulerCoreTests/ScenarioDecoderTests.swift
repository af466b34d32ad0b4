import Foundation
import Testing
import WidgetSchedulerCore

/// A malformed scenario gets an error naming the field at fault.
struct ScenarioDecoderTests {
    static var valid: [String: Any] {[
        "start": "2026-01-05T08:00:00Z",
        "duration": 3600,
        "widgets": [["id": "w1", "kind": "weather", "family": "systemSmall", "addedAt": 0]],
        "responses": ["weather": [["entries": [0, 600], "policy": "atEnd"]]],
        "requests": [["at": 900, "kind": "weather"]],
    ]}

    static func decode(_ scenario: [String: Any]) throws -> Scenario {
        try ScenarioDecoder.decode(try JSONSerialization.data(withJSONObject: scenario))
    }

    static func with(_ path: [String], _ value: Any?) -> [String: Any] {
        func set(_ object: Any, _ path: ArraySlice<String>) -> Any? {
            guard let key = path.first else { return value }
            if var list = object as? [Any], let index = Int(key) {
                list[index] = set(list[index], path.dropFirst()) as Any
                return list
            }
            var fields = object as? [String: Any] ?? [:]
            fields[key] = set(fields[key] as Any, path.dropFirst())
            return fields
        }
        return set(valid, path[...]) as? [String: Any] ?? [:]
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var path: [String]
        var value: String
        var error: String
        var testDescription: String { error }
    }

    static func value(_ json: String) -> Any? {
        json == "<absent>" ? nil : try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
    }

    @Test("each malformed field is named", arguments: [
        Row(path: ["start"], value: "\"monday\"", error: "start: expected an RFC 3339 date, found \"monday\""),
        Row(path: ["start"], value: "<absent>", error: "start: is required"),
        Row(path: ["duration"], value: "\"long\"", error: "duration: expected a number, found the string \"long\""),
        Row(path: ["duration"], value: "0", error: "duration: must be > 0 seconds"),
        Row(path: ["widgets", "0", "id"], value: "7", error: "widgets[0].id: expected a string, found the number 7"),
        Row(path: ["widgets", "0", "colour"], value: "\"red\"",
            error: "widgets[0].colour: unknown field (expected one of: id, kind, family, addedAt)"),
        Row(path: ["widgets", "0", "addedAt"], value: "-5",
            error: "widgets[0].addedAt: must be a number of seconds from 0 to 253402300799.999, found -5"),
        Row(path: ["start"], value: "\"1969-07-20T20:17:00Z\"",
            error: "start: expected a date from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, found "
                + "\"1969-07-20T20:17:00Z\""),
        Row(path: ["duration"], value: "1e300",
            error: "duration: must be a number of seconds from 0 to 253402300799.999, found 1e+300"),
        Row(path: ["responses", "weather", "0", "entries"], value: "[0, -1e17]",
            error: "responses.weather[0].entries[1]: must be a number of seconds within ±253402300799.999, found "
                + "-1e+17"),
        Row(path: ["responses", "weather", "0", "relevance"], value: "[1, 1e39]",
            error: "responses.weather[0].relevance[1]: must be a finite number within ±3.4028235e+38, found 1e+39"),
        Row(path: ["responses", "weather", "0", "policy"], value: "{\"after\": 1e12}",
            error: "responses.weather[0].policy.after: must be a number of seconds within ±253402300799.999, found "
                + "1000000000000"),
        Row(path: ["requests", "0"], value: "{\"at\": 1e300, \"all\": true}",
            error: "requests[0].at: must be a number of seconds from 0 to 253402300799.999, found 1e+300"),
        Row(path: ["clock"], value: "[{\"at\": 5, \"jump\": 1e20}]",
            error: "clock[0].jump: must be a number of seconds within ±253402300799.999, found 1e+20"),
        Row(path: ["settings"], value: "{\"minimumInterval\": 1e300}",
            error: "settings: minimum-interval must be a number of seconds from 0 to 253402300799.999"),
        Row(path: ["settings"], value: "{\"dailyBudget\": 1e-300}",
            error: "settings: daily-budget must be 0 or a number ≥ 0.000001"),
        Row(path: ["responses"], value: "{}", error: "responses: no responses for kind \"weather\" of widget \"w1\""),
        Row(path: ["responses", "weather", "0", "policy"], value: "\"sometimes\"",
            error: "responses.weather[0].policy: expected \"atEnd\", \"never\" or {\"after\": seconds}"),
        Row(path: ["responses", "weather", "0", "entries"], value: "[0, \"x\"]",
            error: "responses.weather[0].entries[1]: expected a number, found the string \"x\""),
        Row(path: ["responses", "weather", "0", "relevance"], value: "[1]",
            error: "responses.weather[0].relevance: has 1 score for 2 entries"),
        Row(path: ["responses", "weather"], value: "[{\"fail\": \"melt\"}]",
            error: "responses.weather[0].fail: expected \"crash\", \"timeout\" or \"invalid\", found \"melt\""),
        Row(path: ["responses", "weather"], value: "[]", error: "responses.weather: needs at least one response"),
        Row(path: ["requests", "0", "at"], value: "true", error: "requests[0].at: expected a number, found a boolean"),
        Row(path: ["requests", "0", "kind"], value: "\"news\"", error: "requests[0].kind: no widget has kind \"news\""),
        Row(path: ["requests", "0", "widget"], value: "\"w1\"",
            error: "requests[0]: needs exactly one of \"kind\", \"all\", \"widget\", \"widgets\""),
        Row(path: ["requests", "0"], value: "{\"at\": 1, \"widget\": \"nope\"}",
            error: "requests[0].widget: no widget has id \"nope\""),
        Row(path: ["requests", "0"], value: "{\"at\": 1, \"kind\": \"weather\", \"configure\": {}}",
            error: "requests[0].configure: goes with \"widget\" only"),
        Row(path: ["settings"], value: "{\"burstBudget\": 0}", error: "settings: burst-budget must be a number ≥ 1"),
        Row(path: ["settings"], value: "{\"maxConcurrentRuns\": 1.5}",
            error: "settings.maxConcurrentRuns: expected an integer, found the number 1.5"),
        Row(path: ["clock"], value: "[{\"at\": 5}]", error: "clock[0].jump: is required"),
    ])
    func malformed(_ row: Row) {
        let scenario = Self.with(row.path, Self.value(row.value))
        #expect(throws: ScenarioError.self) { try Self.decode(scenario) }
        do {
            _ = try Self.decode(scenario)
        } catch {
            #expect("\(error)" == row.error)
        }
    }

    @Test func notJSONIsNamedAsSuch() {
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.decode(Data("{".utf8)) }
    }

    @Test func theExampleScenarioDecodes() throws {
        let scenario = try Self.decode(Self.valid)
        #expect(scenario.widgets.map(\.id) == ["w1"])
        #expect(scenario.requests == [Scenario.Request(at: 900, target: .kind("weather"), foreground: false)])
        #expect(scenario.settings == SchedulerSettings())
    }
}
