import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// `widgetctl show` and `widgetctl watch --format` against the real daemon: a kind's views loaded from its manifest,
/// read through `Views`, drawn at each entry change, and (without date texts) no wake-up in between.
@Suite("Views reach hosts")
struct ViewHostTests {
    /// A view of the scripted provider's content (`{"n": index}`); `ticking` adds a timer counting up from the
    /// entry's date.
    /// `missing` adds a text bound to a field the content never has.
    private static func views(ticking: Bool, missing: Bool = false) -> String {
        let timer = ticking ? #", {"type": "date", "value": "@date", "style": "timer"}"# : ""
        let absent = missing ? #", {"type": "text", "value": "weather.sky"}"# : ""
        return #"""
            {"version": 1, "families": {
              "systemSmall": {"background": "orange", "body": {"type": "vstack", "children": [
                {"type": "text", "text": "count"},
                {"type": "text", "value": "n", "font": "title"}\#(absent)\#(timer)]}},
              "accessoryInline": {"body": {"type": "hstack", "children": [
                {"type": "text", "value": "n"}\#(timer)]}}
            }}
            """#
    }

    private static func world(kinds: [(name: String, ticking: Bool)], missing: Bool = false) throws
        -> DaemonWorld
    {
        let world = try DaemonWorld(config: #"developer-kinds = ["plain", "ticking"]"# + "\n")
        for kind in kinds {
            try world.write(views(ticking: kind.ticking, missing: missing), to: "\(kind.name).views.json")
            try world.addScriptedKind(kind.name, widget: """
                families = ["systemSmall", "accessoryInline"]
                views = "\(kind.name).views.json"
                """)
        }
        try world.start()
        return world
    }

    @Test("show draws the current entry in its family's box, its placeholder, and refuses a family without a view")
    func showDrawsTheWidget() throws {
        let world = try Self.world(kinds: [("plain", false)])
        let id = try world.add("plain")
        try world.waitUntilIdle(id)
        let box = try world.widgetctlSucceeding("show", id).standardOutput
        let lines = box.split(separator: "\n")
        #expect(lines.count == 12)
        #expect(lines.first?.hasPrefix("╭─ \(id) · plain ") == true)
        #expect(box.contains("count") && box.contains(" 0 "))
        #expect(!box.contains("\u{1B}"), "no color when the output is not a terminal")
        let placeholder = try world.widgetctlSucceeding("show", id, "--placeholder").standardOutput
        #expect(!placeholder.contains("count") && placeholder.contains("\u{2586}"))
        let inline = try world.widgetctlSucceeding("show", id, "--family", "accessoryInline").standardOutput
        #expect(inline == "0\n")
        let refused = try world.widgetctl("show", id, "--family", "systemLarge")
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("kind plain has no view for systemLarge (it has: systemSmall, "
            + "accessoryInline)"))
    }

    @Test("watch --format waybar prints a line per entry change and sleeps in between")
    func waybarLinesFollowEntryChangesWithoutWakingUp() throws {
        let world = try Self.world(kinds: [("plain", false)])
        let id = try world.add("plain")
        try world.waitUntilIdle(id)
        let watch = try world.streamWidgetctl(["watch", id, "--format", "waybar"])
        defer { watch.stop() }
        _ = try eventually("the first line") { watch.lines.first }
        try world.setBehaviour(ScriptedProvider.Behaviour(entryOffsets: [0, 1, 2]), for: "plain")
        _ = try world.widgetctlSucceeding("reload", id)
        let lines = try eventually("three entries' lines", timeout: 15) { () -> [String]? in
            let texts = watch.lines.map(\.text)
            return texts.count >= 3 && texts.last?.contains(#""text":"2""#) == true ? texts : nil
        }
        for line in lines {
            let fields = try #require(JSONValue(jsonText: line)?.objectValue, "a JSON object: \(line)")
            #expect(Set(fields.keys).isSubset(of: ["text", "alt", "tooltip", "class", "percentage"]))
            #expect(fields["class"] == .array([.string("plain")]))
            #expect(fields["tooltip"]?.stringValue?.hasPrefix("count") == true)
        }
        #expect(lines.map { JSONValue(jsonText: $0)?.objectValue?["text"] }.suffix(3)
            == [.string("0"), .string("1"), .string("2")])
        // No text ticks and the entry no longer changes: the process must not run at all (P3's count: voluntary
        // and involuntary context switches of every thread).
        let before = try Self.contextSwitches(of: watch.process.pid)
        Thread.sleep(forTimeInterval: 2)
        let after = try Self.contextSwitches(of: watch.process.pid)
        #expect(after - before == 0, "an idle watch woke up \(after - before) times in 2 s")
        #expect(watch.lines.count == lines.count, "nothing printed without a change")
    }

    @Test("watch --format text prints a timer text again each second")
    func aTimerTextIsPrintedEachSecond() throws {
        let world = try Self.world(kinds: [("ticking", true)])
        let id = try world.add("ticking")
        try world.waitUntilIdle(id)
        let watch = try world.streamWidgetctl(["watch", id, "--format", "text"])
        defer { watch.stop() }
        let lines = try eventually("four lines", timeout: 15) { () -> [String]? in
            let texts = watch.lines.map(\.text)
            return texts.count >= 4 ? texts : nil
        }
        // "0 m:ss", counting up from the entry's date: each line a later second than the one before.
        let seconds = lines.compactMap { line -> Int? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[0] == "0" else { return nil }
            let clock = parts[1].split(separator: ":").compactMap { Int($0) }
            return clock.count == 2 ? clock[0] * 60 + clock[1] : nil
        }
        #expect(seconds.count == lines.count, "every line is the number and a timer: \(lines)")
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { $0 < $1 }, "a new second each line: \(lines)")
    }

    @Test("watch --format i3blocks prints one JSON object a line for the persistent mode, a line per change")
    func i3blocksLinesFollowEntryChanges() throws {
        let world = try Self.world(kinds: [("plain", false)])
        let id = try world.add("plain")
        try world.waitUntilIdle(id)
        // The widget's own family, whose background gives the block its color.
        let watch = try world.streamWidgetctl(["watch", id, "--format", "i3blocks", "--family", "systemSmall"])
        defer { watch.stop() }
        _ = try eventually("the first line") { watch.lines.first }
        try world.setBehaviour(ScriptedProvider.Behaviour(entryOffsets: [0, 1, 2]), for: "plain")
        _ = try world.widgetctlSucceeding("reload", id)
        let lines = try eventually("three entries' lines", timeout: 15) { () -> [String]? in
            let texts = watch.lines.map(\.text)
            return texts.count >= 3 && texts.last?.contains(#""full_text":"count · 2""#) == true ? texts : nil
        }
        // i3blocks reads a persistent block's line as JSON only when it is one object on one line.
        let objects = try lines.map { line in
            try #require(JSONValue(jsonText: line)?.objectValue, "a JSON object: \(line)")
        }
        for fields in objects {
            #expect(Set(fields.keys) == ["full_text", "short_text", "color"])
            #expect(fields["short_text"] == .string("count"))
            let color = try #require(fields["color"]?.stringValue)
            #expect(color.count == 7 && color.hasPrefix("#") && color.dropFirst().allSatisfy(\.isHexDigit))
        }
        #expect(objects.map { $0["full_text"] }.suffix(3)
            == [.string("count · 0"), .string("count · 1"), .string("count · 2")])
        #expect(Set(lines).count == lines.count, "a line only when it changes: \(lines)")
    }

    @Test("show --watch redraws at each change and names a field it cannot draw once, not at each frame")
    func showWatchRedrawsAndReportsAProblemOnce() throws {
        let world = try Self.world(kinds: [("ticking", true)], missing: true)
        let id = try world.add("ticking")
        try world.waitUntilIdle(id)
        let watch = try world.streamWidgetctl(["show", id, "--watch"])
        defer { watch.stop() }
        // In a pipe each frame follows the last; the timer redraws it each second.
        func frames() -> [String] {
            let text = watch.lines.map(\.text).joined(separator: "\n")
            return text.components(separatedBy: "╭").dropFirst().map { "╭" + $0 }
        }
        _ = try eventually("three frames", timeout: 15) { frames().count >= 3 ? true : nil }
        #expect(frames().allSatisfy { $0.contains(" 0 ") && $0.contains("count") })
        // A new timeline whose second entry ({"n": 1}) comes a second later: the same field is still missing.
        try world.setBehaviour(ScriptedProvider.Behaviour(entryOffsets: [0, 1]), for: "ticking")
        _ = try world.widgetctlSucceeding("reload", id)
        _ = try eventually("a frame of the second entry", timeout: 15) {
            frames().last?.contains(" 1 ") == true ? true : nil
        }
        let framesDrawn = frames().count
        _ = try eventually("two more frames", timeout: 15) { frames().count >= framesDrawn + 2 ? true : nil }
        let reports = watch.standardError.split(separator: "\n").filter { $0.contains("weather.sky") }
        #expect(reports == ["widgetctl: \(id): weather.sky: missing"], "\(frames().count) frames drawn")
    }

    /// Context switches of every thread of `pid`, as P3 counts them.
    static func contextSwitches(of pid: pid_t) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.reduce(0) { total, task in
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            return total + status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                .compactMap { Int($0.split(separator: "\t").last ?? "") }.reduce(0, +)
        }
    }
}
