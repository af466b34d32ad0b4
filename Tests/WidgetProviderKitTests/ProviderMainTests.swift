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
