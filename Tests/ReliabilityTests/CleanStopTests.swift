import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

/// A clean stop (SIGTERM) leaves the whole state in `state.sqlite`: issue 29 §5 found a 4 KB database beside a 296 KB
/// WAL after one, so that a WAL damaged or lost while the daemon was stopped took every widget with it.
@Suite("clean stop")
struct CleanStopTests {
    static let provider = """
        #!/bin/sh
        cat > /dev/null
        echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{"text":"ok"}}],"policy":"never"}'
        """

    @Test func aCleanStopLeavesTheWholeStateInTheDatabaseFileAndTheWALEmpty() throws {
        let world = try DaemonWorld(config: "")
        try world.addKind("note", script: Self.provider)
        try world.start()
        let ids = try (0..<20).map { _ in try world.connect().add("note") }
        world.signal(SIGTERM)
        _ = try eventually("the daemon's exit") { () -> Bool? in world.isRunning ? nil : true }

        let wal = world.stateDirectory.appendingPathComponent(StateStore.fileName + "-wal").path
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(walSize == 0, "the WAL holds \(walSize) bytes after a clean stop")
        // The database file alone, without its WAL, holds every widget.
        let alone = world.root.appendingPathComponent("alone", isDirectory: true)
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: world.stateDirectory.appendingPathComponent(StateStore.fileName),
                                         to: alone.appendingPathComponent(StateStore.fileName))
        let store = try StateStore(directory: alone)
        defer { try? store.close() }
        #expect(try store.widgetCount() == ids.count)
    }
}
