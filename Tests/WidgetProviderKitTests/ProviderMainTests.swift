import Foundation
import Testing
import WidgetProviderKit

private struct NoteEntry: TimelineEntry {
    let date: Date
    let note: String
    var relevance: TimelineEntryRelevance?
}

/// A provider written the WidgetKit way, with completion handlers.
private struct CompletionProvider: TimelineProvider {
    func placeholder(in context: Context) -> NoteEntry {
        NoteEntry(date: context.now, note: "placeholder")
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (NoteEntry) -> Void) {
        completion(NoteEntry(date: context.now, note: "snapshot of \(context.family)"))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<NoteEntry>) -> Void) {
        let city = context.configuration["city"]?.stringValue ?? "nowhere"
        let entries = [
            NoteEntry(date: context.now, note: city, relevance: TimelineEntryRelevance(score: 2, duration: 600)),
            NoteEntry(date: context.now.addingTimeInterval(300), note: "\(city) later"),
        ]
        completion(Timeline(entries: entries, policy: .after(context.now.addingTimeInterval(3600))))
    }

    func defaultConfiguration(in context: Context) async -> [String: ParameterValue] {
        ["city": context.groupValue(forKey: "location")?.value ?? "Cupertino"]
    }

    func options(for parameter: String, search: String?, in context: Context) async -> [ParameterOption] {
        ["Paris", "Parma", "Oslo"].filter { $0.hasPrefix(search ?? "") }.map {
            ParameterOption(value: .string($0.lowercased()), title: $0, subtitle: parameter)
        }
    }
}

private struct NotesWidget: Widget {
    var body: some WidgetConfiguration { StaticConfiguration(kind: "notes", provider: CompletionProvider()) }
}

private struct OtherWidget: Widget {
    var body: some WidgetConfiguration { StaticConfiguration(kind: "other", provider: CompletionProvider()) }
}

private struct NotesBundle: WidgetBundle {
    var body: some Widget {
        NotesWidget()
        OtherWidget()
    }
}

private func request(_ kind: String, _ extra: String = "", widgetKind: String = "notes") -> Data {
    Data(#"""
        {"protocol": 1, "request": "\#(kind)", "kind": "\#(widgetKind)", \#(extra)
         "widget": {"id": "w1", "family": "systemMedium", "configuration": {"city": "Paris"}},
         "context": {"now": "2026-01-05T08:00:00Z", "isPreview": false, "reason": "policy"}}
        """#.utf8)
}

private func answer(_ data: Data) async throws -> String {
    let output = try await ProviderMain.answer(to: data, widgets: NotesBundle().staticConfigurations).get()
    return String(decoding: output, as: UTF8.self)
}

@Test("a timeline request is dispatched to the kind's provider and answered in the wire shape")
func timelineRequestIsAnswered() async throws {
    #expect(try await answer(request("timeline")) == #"""
        {"entries":[{"content":{"date":"2026-01-05T08:00:00Z","note":"Paris","relevance":{"duration":600,"score":2}},\#
        "date":"2026-01-05T08:00:00Z","relevance":{"duration":600,"score":2}},\#
        {"content":{"date":"2026-01-05T08:05:00Z","note":"Paris later"},"date":"2026-01-05T08:05:00Z"}],\#
        "policy":{"after":"2026-01-05T09:00:00Z"}}
        """#)
}

@Test("snapshot, placeholder, defaults and options requests are answered", arguments: [
    ("snapshot", "", #"{"entry":{"content":{"date":"2026-01-05T08:00:00Z","note":"snapshot "#
        + #"of systemMedium"},"date":"2026-01-05T08:00:00Z"}}"#),
    (
        "placeholder", "",
        #"{"entry":{"content":{"date":"2026-01-05T08:00:00Z","note":"placeholder"},"date":"2026-01-05T08:00:00Z"}}"#
    ),
    ("defaults", "", #"{"configuration":{"city":"Cupertino"}}"#),
    (
        "options", #""parameter": "city", "search": "Par","#,
        #"{"options":[{"subtitle":"city","title":"Paris","value":"paris"},"#
            + #"{"subtitle":"city","title":"Parma","value":"parma"}]}"#
    ),
])
func otherRequestsAreAnswered(_ kind: String, _ extra: String, _ expected: String) async throws {
    #expect(try await answer(request(kind, extra)) == expected)
}

@Test("the second widget of a bundle is served too")
func bundleServesEveryKind() async throws {
    #expect(try await answer(request("defaults", widgetKind: "other")) == #"{"configuration":{"city":"Cupertino"}}"#)
}

@Test("defaults read the group's shared data when the app wrote it")
func defaultsReadGroupData() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kit-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(#"{"value": "Lyon", "updatedAt": "2026-01-05T07:00:00Z"}"#.utf8)
        .write(to: directory.appendingPathComponent("location"))
    let data = Data(#"""
        {"protocol": 1, "request": "defaults", "kind": "notes",
         "context": {"now": "2026-01-05T08:00:00Z", "isPreview": false, "dataDirectory": "\#(directory.path)"}}
        """#.utf8)
    #expect(try await answer(data) == #"{"configuration":{"city":"Lyon"}}"#)
}

@Test("requests the SDK cannot serve fail with a message and exit code 2", arguments: [
    ("not json", "invalid request on stdin: not JSON"),
    (#"{"protocol": 1, "kind": "notes"}"#, #"invalid request on stdin: missing "request""#),
    (#"{"protocol": 2, "request": "timeline", "kind": "notes"}"#, "unsupported protocol version 2 (this SDK speaks 1)"),
    (#"{"protocol": 1, "request": "timeline", "kind": "clock"}"#, #"unknown kind "clock" (this "#
        + #"provider serves: notes, other)"#),
    (#"{"protocol": 1, "request": "preview", "kind": "notes"}"#, #"unknown request "preview""#),
])
func unservableRequestsFail(_ text: String, _ message: String) async {
    let result = await ProviderMain.answer(to: Data(text.utf8), widgets: NotesBundle().staticConfigurations)
    guard case .failure(let error) = result else {
        Issue.record("answered \(text)")
        return
    }
    #expect(error.description == message)
    #expect(error.exitCode == 2)
}

/// A provider whose one entry is `offset` seconds after now, with a relevance of `score` for `duration`, and policy
/// `after` now plus `after`: the numbers come from the widget's configuration.
private struct FarProvider: TimelineProvider {
    func placeholder(in context: Context) -> NoteEntry { NoteEntry(date: context.now, note: "far") }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (NoteEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<NoteEntry>) -> Void) {
        func number(_ name: String) -> Double { context.configuration[name]?.doubleValue ?? 0 }
        let relevance = TimelineEntryRelevance(score: Float(number("score")), duration: number("duration"))
        let entry = NoteEntry(date: context.now.addingTimeInterval(number("offset")), note: "far",
                              relevance: relevance)
        completion(Timeline(entries: [entry], policy: .after(context.now.addingTimeInterval(number("after")))))
    }
}

@Test("an answer with a date, score or duration the daemon would refuse fails on the provider's side, naming it",
      arguments: [
          (#""offset": 1e17"#, "could not answer: entry 0: date 1.000000017676e+17 s after 1970 is not a date from "
              + "1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"),
          (#""offset": -1767600001"#, "could not answer: entry 0: date -1.0 s after 1970 is not a date from "
              + "1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"),
          (#""duration": 1e17"#, "could not answer: entry 0: relevance duration 1e+17 s is not from 0 to "
              + "253402300799.999 s"),
          (#""score": 1e39"#, "could not answer: entry 0: relevance score inf is not a finite number"),
          (#""after": 1e300"#, "could not answer: policy: after 1e+300 s after 1970 is not a date from "
              + "1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"),
      ])
func outOfRangeAnswerFailsOnTheProviderSide(_ configuration: String, _ message: String) async {
    let widget = StaticConfiguration(kind: "far", provider: FarProvider())
    let data = Data(#"""
        {"protocol": 1, "request": "timeline", "kind": "far", "widget": {"configuration": {\#(configuration)}},
         "context": {"now": "2026-01-05T08:00:00Z"}}
        """#.utf8)
    guard case .failure(let error) = await ProviderMain.answer(to: data, widgets: [widget]) else {
        Issue.record("answered with \(configuration)")
        return
    }
    #expect(error.description == message)
    #expect(error.exitCode == 1)
}

@Test("a request whose now is outside the protocol's dates is refused", arguments: [
    "1969-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "tomorrow",
])
func requestWithNowOutOfRangeIsRefused(_ now: String) async {
    let data = Data(#"{"protocol": 1, "request": "timeline", "kind": "notes", "context": {"now": "\#(now)"}}"#.utf8)
    guard case .failure(let error) = await ProviderMain.answer(to: data, widgets: NotesBundle().staticConfigurations)
    else {
        Issue.record("answered with now \(now)")
        return
    }
    #expect(error.description == #"invalid request on stdin: "context.now" must be an RFC 3339 date from "#
        + #"1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, found "\#(now)""#)
    #expect(error.exitCode == 2)
}
