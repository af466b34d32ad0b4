import Foundation
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The real daemon starts its providers under Landlock: they cannot touch its state directory, whatever their user
/// may write, and still write where the configuration lets them (issue 8, R6).
@Suite("Provider sandbox")
struct ProviderSandboxTests {
    @Test("a provider cannot write the daemon's state directory but can write its configured paths")
    func providersCannotWriteTheState() throws {
        let world = try DaemonWorld()
        let scratch = world.root.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        try "provider-writable-paths = [\"\(scratch.path)\", \"/dev\"]\n"
            .write(to: world.configURL, atomically: true, encoding: .utf8)
        try world.write("""
            #!/bin/sh
            cat > /dev/null
            try() {
                if (eval "$2") 2>/dev/null; then echo "\\"$1\\":\\"written\\","; else echo "\\"$1\\":\\"denied\\","; fi
            }
            fields=$(
                try state ': > "\(world.stateDirectory.path)/intruder"'
                try database 'exec 3>>"\(world.stateDirectory.path)/state.sqlite"'
                try scratch ': > "\(scratch.path)/note"'
            )
            printf '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{%s"end":1}}],"policy":"never"}\\n' \
                "$fields"
            """, to: "intruder.sh", executable: true)
        try world.write("exec = \"./intruder.sh\"\n[[widget]]\nkind = \"intruder\"\n", to: "intruder.toml")
        try world.start()
        let id = try world.add("intruder")
        let widget = try world.waitUntilIdle(id)
        #expect(widget.lastOutcome == "success", "\(world.daemonLog)")
        let content = try #require(widget.currentEntry?.content.objectValue)
        #expect(content["state"] == .string("denied"))
        #expect(content["database"] == .string("denied"))
        #expect(content["scratch"] == .string("written"))
        #expect(!FileManager.default.fileExists(atPath: world.stateDirectory.appendingPathComponent("intruder").path))
        #expect(world.daemonLog.contains("providers may write only beneath \(scratch.path), /dev"))

        // The daemon itself still writes its state: a reload is persisted and answered.
        let reply = try world.widgetctlSucceeding("reload", id, "--foreground", "--json")
            .decoded(ReloadMethod.Reply.self)
        #expect(reply.decisions.map(\.decision) == [.ran])
    }

    @Test("runs' image directories beneath a writable path are named in a warning")
    func aRunRootProvidersMayWriteIsWarnedOf() throws {
        let world = try DaemonWorld()
        try "provider-writable-paths = [\"\(world.root.path)\", \"/dev\"]\n"
            .write(to: world.configURL, atomically: true, encoding: .utf8)
        try world.start()
        let line = try #require(world.daemonLog.split(separator: "\n").first { $0.contains("providers may write") })
        #expect(line.contains("the runs' image directories (\(world.runtimeDirectory.path)/image-runs) are beneath "),
                "\(line)")
        #expect(line.contains("so one run can write in another's"))
    }

    @Test("provider-sandbox = false lets providers write wherever their user may, and the daemon says so")
    func theSandboxCanBeTurnedOff() throws {
        let world = try DaemonWorld(config: "provider-sandbox = false\n")
        try world.write("""
            #!/bin/sh
            cat > /dev/null
            if : > "\(world.stateDirectory.path)/intruder" 2>/dev/null; then state=written; else state=denied; fi
            printf '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{"state":"%s"}}],"policy":"never"}\\n' "$state"
            """, to: "intruder.sh", executable: true)
        try world.write("exec = \"./intruder.sh\"\n[[widget]]\nkind = \"intruder\"\n", to: "intruder.toml")
        try world.start()
        let id = try world.add("intruder")
        let widget = try world.waitUntilIdle(id)
        #expect(widget.currentEntry?.content.objectValue?["state"] == .string("written"))
        #expect(world.daemonLog.contains("provider sandbox off"))
    }
}
