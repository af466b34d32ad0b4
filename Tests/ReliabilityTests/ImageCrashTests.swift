import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerCore
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// R10: the daemon killed with SIGKILL at random instants while 20 widgets store a new image at every run and share
/// one. After every kill and restart: every image an entry names is stored (no dangling reference), and no stored
/// image is one nothing names (the start-up sweep left no orphan).
@Suite("R10 images under kill -9", .serialized)
struct ImageCrashTests {
    static let kills = Int(ProcessInfo.processInfo.environment["WIDGET_FAULTS_IMAGE_KILLS"] ?? "") ?? 40
    static let widgetCount = 20

    /// While `pause` exists the provider waits before it writes anything (so the state stays as the restart found
    /// it); then it writes a picture all widgets share and one of its own (the run's uptime and pid make it new),
    /// and answers one past entry naming both.
    static var provider: String {
        let header = CraftedImage.png(width: 16, height: 16).map { String(format: "\\%03o", $0) }.joined()
        return """
            #!/bin/sh
            IFS= read -r request
            while [ -e pause ]; do sleep 0.02; done
            dir=${request#*\\"imageDirectory\\":\\"}
            dir=${dir%%\\"*}
            read uptime idle < /proc/uptime
            printf '\(header)' > "$dir/shared.png"
            { printf '\(header)'; echo "$uptime $$"; } > "$dir/own.png"
            entry='{"date":"2026-01-01T00:00:00Z","content":{"a":"shared.png","b":"own.png"}}'
            printf '{"entries":[%s],"policy":"atEnd"}\\n' "$entry"
            """
    }

    @Test("after every kill: every named image stored, no stored image unnamed")
    func killNineWhileImagesAreStored() throws {
        let world = try DaemonWorld(config: """
            minimum-interval = 2
            daily-budget = 1
            burst-budget = 100000
            coalesce-window = 0
            max-concurrent-runs = 4
            """)
        try world.addKind("photo", script: Self.provider, timeout: 30, manifestExtra: "images = true")
        try world.start()
        var ids: [String] = []
        for _ in 0..<Self.widgetCount { ids.append(try world.connect().add("photo")) }
        let images = world.stateDirectory.appendingPathComponent("images")
        let pause = world.providersDirectory.appendingPathComponent("pause")
        let seed = SeededGenerator.seed()
        var random = SeededGenerator(seed: seed)
        var dangling: [String] = []
        var orphans: [String] = []
        var unreadable: [String] = []
        var storedCounts: [Int] = []
        for round in 1...Self.kills {
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &random))
            world.stopDaemon()
            let store = try StateStore(directory: world.stateDirectory)
            let rows = try store.imageReferences().values.reduce(into: Set<String>()) { $0.formUnion($1) }
            try store.close()
            // Runs started from here wait: what the restarted daemon holds is what it found.
            try Data().write(to: pause)
            try world.start()
            var named = Set<String>()
            let connection = try world.connect()
            for summary in try world.list() {
                for image in (summary.currentEntry?.images ?? [:]).values { named.insert(image.sha256) }
            }
            for id in ids {
                let reply = try VarlinkCoding.decode(TimelineMethod.Reply.self,
                                                     from: try connection.call(.timeline, ["id": .string(id)]))
                for entry in reply.entries {
                    for image in (entry.images ?? [:]).values { named.insert(image.sha256) }
                }
            }
            let stored = Set(try FileManager.default.contentsOfDirectory(atPath: images.path))
            storedCounts.append(stored.count)
            for hash in named.subtracting(stored) { dangling.append("kill \(round): \(hash)") }
            // The state's own rows may keep an image a moment longer than the entries show (a current entry a
            // run-start record brought forward); anything else stored is an orphan the sweep missed.
            for name in stored.subtracting(named).subtracting(rows) { orphans.append("kill \(round): \(name)") }
            if let hash = named.sorted().first {
                let widget = ids.first { id in
                    (try? connection.call(.image, ["widget": .string(id), "sha256": .string(hash)])) != nil
                }
                if widget == nil { unreadable.append("kill \(round): \(hash) served for no widget") }
            }
            try FileManager.default.removeItem(at: pause)
        }
        world.stopDaemon()
        #expect(dangling.isEmpty, "entries naming images that are not stored: \(dangling.prefix(5))")
        #expect(orphans.isEmpty, "stored images nothing names after the sweep: \(orphans.prefix(5))")
        #expect(unreadable.isEmpty, "\(unreadable.prefix(5))")
        print("R10: \(Self.kills) kill -9s (seed \(seed)) of a daemon storing images for \(Self.widgetCount) "
              + "widgets: dangling \(dangling.count), orphans \(orphans.count), stored after each restart "
              + "\(storedCounts.min() ?? 0)–\(storedCounts.max() ?? 0)")
    }
}
