import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// R8, issue 29 §6: started by hand with a shell's umask (022, as this test process has), the daemon left
/// `state.sqlite`, its WAL and the group data files 0644, so any local user could read a group's values. Now nothing
/// in the state directory is open to the group or others, including files an older version left behind, while the
/// control socket stays open to every local user (a umask of 0077 for the whole daemon closed it).
@Suite("private state files")
struct PrivateStateFilesTests {
    static let provider = """
        #!/bin/sh
        cat > /dev/null
        echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{"text":"ok"}}],"policy":"never"}'
        """

    @Test func noFileInTheStateDirectoryIsOpenToOthersWhateverTheUmask() throws {
        let world = try DaemonWorld(config: "")
        try world.addKind("note", script: Self.provider, manifestExtra: #"group = "notes""#)
        // A group file as an older version wrote it.
        let groups = world.stateDirectory.appendingPathComponent("groups/notes", isDirectory: true)
        try FileManager.default.createDirectory(at: groups, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let old = groups.appendingPathComponent("old").path
        _ = FileManager.default.createFile(atPath: old, contents: Data(#"{"value":"x"}"#.utf8),
                                           attributes: [.posixPermissions: 0o644])
        try world.start()
        _ = try world.connect().add("note")
        _ = try world.connect().call(.dataSet, [
            "group": .string("notes"), "key": .string("home"), "value": .string("12 Secret St")])

        var open: [String] = []
        var checked = 0
        let paths = [world.stateDirectory.path]
            + (FileManager.default.subpaths(atPath: world.stateDirectory.path) ?? []).map {
                world.stateDirectory.path + "/" + $0
            }
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            checked += 1
            if info.st_mode & 0o077 != 0 { open.append("\(path): \(String(info.st_mode & 0o7777, radix: 8))") }
        }
        #expect(open.isEmpty, "\(open)")
        let widgetctl = try BuiltProducts.executable("widgetctl")
        let stranger = try ChildProcess.run(
            ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", widgetctl, "status"],
            environment: ["WIDGET_SCHEDULER_SOCKET": world.socketPath, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(stranger.status == 0, "the control socket is still open to others: \(stranger.output)")
        #expect(paths.contains { $0.hasSuffix("/state.sqlite-wal") }, "\(paths)")
        #expect(paths.contains { $0.hasSuffix("/groups/notes/home") }, "\(paths)")
        print("R8: private state files: \(checked) paths in the state directory, \(open.count) open to others")
    }
}
