import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The state directory on a small tmpfs filled to the last block (issue 29 §5): a change the daemon cannot commit is
/// never acknowledged. The client hears `StateNotWritten`, `Status` and the journal say the daemon is degraded (one
/// line, not one per attempt), and once space returns the daemon writes again by itself: what it kept in memory is
/// then on disk, and survives a kill -9.
@Suite("full state filesystem")
struct FullFilesystemTests {
    static let provider = """
        #!/bin/sh
        cat > /dev/null
        echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{"text":"ok"}}],"policy":"never"}'
        """

    @Test("a change that cannot be committed is refused, said once, and saved when space returns",
          .enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func aFullFilesystem() throws {
        let world = try DaemonWorld(config: "")
        try FileManager.default.createDirectory(at: world.stateDirectory, withIntermediateDirectories: true)
        try Self.mountTmpfs(at: world.stateDirectory.path, size: "4m")
        defer {
            world.stopDaemon()
            _ = umount2(world.stateDirectory.path, Self.detach)
        }
        try world.addKind("note", script: Self.provider, widgetExtra: """
              [widget.parameters.text]
              type = "string"
              title = "Text"
              default = "-"
            """)
        try world.start()
        let kept = try world.connect().add("note")
        // The kept widget's run and its paced write end before the disk fills: a write of its timeline failing
        // after the fill would make the daemon degraded first, and the big widget below would then be refused
        // unapplied rather than applied and unsaved, which is what this test pins.
        try world.waitUntilIdle(kept)
        try world.waitUntilStateWritten()

        let filler = world.stateDirectory.appendingPathComponent("filler")
        try Self.fill(filler.path)
        // A configuration of 256 KiB: its commit needs WAL pages the filesystem no longer has.
        let big: [String: JSONValue] = ["text": .string(String(repeating: "x", count: 256 * 1024))]
        let first = Self.failure(try world.connect(), .add, ["kind": .string("note"), "parameters": .object(big)])
        #expect(first?.contains("StateNotWritten") == true, "\(first ?? "answered")")
        #expect(first?.contains(#""applied":true"#) == true, "\(first ?? "answered")")
        // widgetctl exits non-zero and says why.
        let removal = try ChildProcess.run(
            [try BuiltProducts.executable("widgetctl"), "remove", kept],
            environment: ["WIDGET_SCHEDULER_SOCKET": world.socketPath, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"])
        #expect(removal.status != 0, "\(removal)")
        #expect(removal.output.contains("the daemon cannot write its state"), "\(removal)")
        let status = try world.connect().call(.status)
        #expect(status["status"]?.stringValue?.hasPrefix("degraded") == true, "\(status)")
        #expect(status["stateNotWritten"]?.objectValue?["cause"] != nil, "\(status)")

        // Reads are served meanwhile; the backoff's attempts fail too and are not said again.
        for _ in 0..<10 { _ = try world.connect().list() }
        _ = try eventually("three failed attempts") { () -> Bool? in
            let failure = try world.connect().call(.status)["stateNotWritten"]?.objectValue
            guard case .integer(let attempts)? = failure?["attempts"] else { return nil }
            return attempts >= 3 ? true : nil
        }
        let said = world.logLines.filter { $0.fields["MESSAGE_ID"] == Self.stateNotWritten }
        #expect(said.count == 1, "\(said)")

        try FileManager.default.removeItem(at: filler)
        _ = try eventually("the daemon writing again", timeout: 60) { () -> Bool? in
            let status = try world.connect().call(.status)
            return status["stateNotWritten"] == nil && status["status"]?.stringValue?.hasPrefix("degraded") == false
                ? true : nil
        }
        #expect(world.logLines.contains { $0.fields["MESSAGE_ID"] == Self.stateWrittenAgain })
        let removed = try ChildProcess.run(
            [try BuiltProducts.executable("widgetctl"), "remove", kept],
            environment: ["WIDGET_SCHEDULER_SOCKET": world.socketPath, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"])
        #expect(removed.status == 0, "\(removed)")

        // What the daemon answered and kept in memory is on disk: the big widget the first failure left in effect
        // (told "not saved" but applied), and the removal acknowledged once space returned.
        world.stopDaemon()
        try world.start()
        let widgets = try world.connect().list()
        #expect(!widgets.contains { $0.id == kept }, "\(widgets.map(\.id))")
        #expect(widgets.contains { $0.configuration == big }, "\(widgets.map(\.id))")
    }

    /// umount2's MNT_DETACH: the mount goes even while the killed daemon's last descriptors close.
    static let detach: Int32 = 2
    static let stateNotWritten = "5da39722d2544e80bc473afea9722b88"
    static let stateWrittenAgain = "cc055d94ceb645f0be10fdc887ffc8d9"

    /// The error a call got, or nil if it was answered.
    static func failure(_ connection: RawVarlinkConnection, _ method: ControlMethod, _ parameters: [String: JSONValue])
        -> String?
    {
        do {
            _ = try connection.call(method, parameters, timeout: 20)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func mountTmpfs(at path: String, size: String) throws {
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(size),mode=0755") == 0 else {
            throw TestFailure("mount tmpfs on \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Writes zeros to `path` until the filesystem has no block left.
    static func fill(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestFailure("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4096)
        while true {
            let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written < 0 && errno == ENOSPC { return }
            guard written > 0 else { throw TestFailure("write \(path): \(String(cString: strerror(errno)))") }
        }
    }
}
