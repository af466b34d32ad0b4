import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The repository's Python SDK (python/widgetkit), found from this file's path.
private let pythonDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("python").path

/// A provider on the SDK: one entry showing the group's "note" (and how old it is), reloaded only when asked.
private let noteProvider = #"""
    #!/usr/bin/python3
    from widgetkit import Entry, Relevance, Timeline, TimelineProvider, never, main

    class Note(TimelineProvider):
        def timeline(self, context):
            note = context.group_value("note")
            return Timeline([Entry(context.now, {"note": note.value if note else None, "reason": context.reason,
                                                 "writtenAt": note.updated_at if note else None}, Relevance(1))],
                            never())

    main(Note())
    """#

/// An app on the SDK: writes the note and reloads the kind, then prints what it learnt as JSON.
private let noteApp = #"""
    import json, sys
    from widgetkit import GroupDefaults, WidgetCenter, WidgetCenterError

    try:
        notes = GroupDefaults("notes")
        decisions = notes.set("note", sys.argv[1], reload_kinds=["note"])
        print(json.dumps({
            "decisions": [[d.widget, d.decision] for d in decisions],
            "note": notes["note"],
            "all": dict(notes),
            "widgets": [[w.id, w.kind, w.family, w.configuration] for w in WidgetCenter().current_configurations()],
        }))
    except WidgetCenterError as error:
        print("note-app: %s (%s)" % (error, type(error).__name__), file=sys.stderr)
        sys.exit(1)
    """#

/// The Python SDK's two halves through the real daemon: a provider it runs (sandboxed, as any provider) and an app
/// talking to its socket.
@Suite("Python SDK against the real daemon")
struct PythonSDKTests {
    @Test("an SDK app's write and reload reach an SDK provider's widget; a stranger's write is refused")
    func appAndProviderMeetThroughTheDaemon() throws {
        let world = try DaemonWorld(config: "minimum-interval = 0\n")
        try world.write(noteProvider, to: "note.py", executable: true)
        try world.write("exec = \"./note.py\"\ngroup = \"notes\"\n\n[[widget]]\nkind = \"note\"\n", to: "note.toml")
        try copySDK(into: world)
        try world.write(noteApp, to: "note-app.py")
        let app = ["/usr/bin/python3", world.providersDirectory.appendingPathComponent("note-app.py").path]
        let environment = ["PYTHONPATH": world.providersDirectory.path, "PYTHONDONTWRITEBYTECODE": "1"]
        try world.start()
        let id = try world.add("note")
        let first = try world.waitUntilIdle(id)
        #expect(first.lastOutcome == "success", "\(first)\n\(world.daemonLog)")
        #expect(first.currentEntry?.content == .object(
            ["note": .null, "reason": .string("initial"), "writtenAt": .null]))

        let result = try world.run(app + ["hello"], environment: environment).wait()
        #expect(result.status == 0, "\(result)")
        let printed = try result.json().objectValue ?? [:]
        #expect(printed["decisions"] == .array([.array([.string(id), .string("ran")])]))
        #expect(printed["note"] == .string("hello"))
        #expect(printed["all"] == .object(["note": .string("hello")]))
        #expect(printed["widgets"] == .array([.array([.string(id), .string("note"), .string("systemSmall"),
                                                      .object([:])])]))
        let shown = try eventually("the widget to show the note") { () -> [String: JSONValue]? in
            let content = try world.summary(id).currentEntry?.content.objectValue
            return content?["note"] == .string("hello") ? content : nil
        }
        #expect(shown["reason"] == .string("explicit"))
        let written = try #require(shown["writtenAt"]?.stringValue)
        #expect(written.hasSuffix("Z"), "an aware datetime written as RFC 3339: \(written)")

        let refused = try world.run(app + ["intruder"], as: .nobody, environment: environment).wait()
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.hasPrefix("note-app: permission denied: uid 65534 is not among group notes's "
                                                + "writers"), "\(refused)")
        #expect(refused.standardError.hasSuffix("(PermissionDenied)\n"), "\(refused)")
        #expect(try world.summary(id).currentEntry?.content.objectValue?["note"] == .string("hello"))
    }

    @Test("an SDK provider's refusal of a naive date fails the run, with the SDK's reason in the daemon's log")
    func providerFailureIsReported() throws {
        let world = try DaemonWorld(config: "minimum-interval = 0\n")
        try world.write(#"""
            #!/usr/bin/python3
            from datetime import datetime
            from widgetkit import Entry, Timeline, TimelineProvider, main

            class Naive(TimelineProvider):
                def timeline(self, context):
                    # A date without a time zone: the SDK refuses it before the daemon sees it.
                    return Timeline([Entry(datetime(2026, 1, 5, 8), "?")])

            main(Naive())
            """#, to: "naive.py", executable: true)
        try world.write("exec = \"./naive.py\"\n\n[[widget]]\nkind = \"naive\"\n", to: "naive.toml")
        try copySDK(into: world)
        try world.start()
        let id = try world.add("naive")
        let widget = try world.waitUntilIdle(id)
        #expect(widget.lastOutcome == "exit", "\(widget)")
        #expect(widget.currentEntry == nil)
        #expect(world.daemonLog.contains("error: ValueError: entry date has no time zone"), "\(world.daemonLog)")
    }

    /// Copies the SDK into the world's providers directory, where the providers import it from their own directory
    /// (as an example in the repository does) and the apps through PYTHONPATH. A copy, not the checkout's own: an app
    /// runs as `nobody`, who may not reach a checkout under a private directory (a clone in /root, or a mktemp -d).
    private func copySDK(into world: DaemonWorld) throws {
        try FileManager.default.copyItem(atPath: pythonDirectory + "/widgetkit",
                                         toPath: world.providersDirectory.appendingPathComponent("widgetkit").path)
    }
}
