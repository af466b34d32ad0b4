import Foundation
import Glibc
import Testing
import WidgetProtocol
import WidgetSchedulerTestKit

/// The daemon's configuration file and manifests when they are wrong: at start, a clear error naming the key; on
/// SIGHUP, the previous configuration and every good manifest stay in force.
@Suite("Bad configuration and manifests")
struct ConfigurationTests {
    /// A configuration file and the key its error must name.
    struct Case: CustomTestStringConvertible, Sendable {
        var config: String
        var key: String

        var testDescription: String { config.trimmingCharacters(in: .newlines) }
    }

    static let cases: [Case] = [
        Case(config: "minimum-interval = \"soon\"\n", key: "minimum-interval"),
        Case(config: "burst-budget = 0\n", key: "burst-budget"),
        Case(config: "max-concurrent-runs = 1.5\n", key: "max-concurrent-runs"),
        Case(config: "minimum-intervall = 5\n", key: "minimum-intervall"),
        Case(config: "developer-kinds = \"weather\"\n", key: "developer-kinds"),
        Case(config: "provider-sandbox = \"yes\"\n", key: "provider-sandbox"),
        Case(config: "provider-writable-paths = [\"/tmp\", \"relative/dir\"]\n", key: "provider-writable-paths"),
        Case(config: "max-connections-per-user = 0\n", key: "max-connections-per-user"),
        Case(config: "idle-timeout = \"1m\"\n", key: "idle-timeout"),
        Case(config: "buffer-budget = \"lots\"\n", key: "buffer-budget"),
        Case(config: "options-rate = 0\n", key: "options-rate"),
    ]

    @Test("a bad configuration stops the start with exit 1 and an error naming the file and the key",
          arguments: cases)
    func badConfigurationAtStart(_ bad: Case) throws {
        let world = try DaemonWorld(config: bad.config)
        let result = try RunningCommand(
            [try BuiltProducts.executable("widget-scheduler"), "--config", world.configURL.path,
             "--state-dir", world.stateDirectory.path, "--runtime-dir", world.runtimeDirectory.path,
             "--providers-dir", world.providersDirectory.path],
            environment: ["PATH": "/usr/bin:/bin"], scratch: world.root
        ).wait(timeout: 10)
        #expect(result.status == 1, "\(result)")
        let line = "widget-scheduler: \(world.configURL.path): \"\(bad.key)\": "
        #expect(result.standardError.contains(line), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: world.socketPath), "it never listened")
    }

    @Test("SIGHUP with a broken configuration and a broken manifest keeps the previous settings and the good kinds")
    func hangupWithBrokenFilesKeepsWhatWorks() throws {
        let world = try DaemonWorld(config: "minimum-interval = 60\n")
        try world.addScriptedKind("plain")
        try world.start()
        let id = try world.add("plain")
        try world.waitUntilIdle(id)

        try "minimum-interval = -1\n".write(to: world.configURL, atomically: true, encoding: .utf8)
        try world.write("exec = \"./scripted.py\"\ntimout = 5\n[[widget]]\nkind = \"broken\"\n", to: "broken.toml")
        try world.addScriptedKind("fresh")
        world.signal(SIGHUP)
        let kinds = try eventually("the reload after SIGHUP", timeout: 5) { () -> [String]? in
            let kinds = try world.widgetctlSucceeding("kinds", "--json").decoded([KindsMethod.Kind].self)
            return kinds.contains { $0.kind == "fresh" } ? kinds.map(\.kind) : nil
        }
        #expect(kinds == ["fresh", "plain"], "the bad manifest is left out, the others load")
        let status = try world.widgetctlSucceeding("status", "--json").decoded(StatusMethod.Reply.self)
        #expect(status.settings.minimumInterval == 60, "the previous configuration stays")
        #expect(try world.list().map(\.id) == [id])
        let log = world.daemonLog
        #expect(log.contains("broken.toml: \"timout\": unknown key"), "the manifest error names file and key")
        #expect(log.contains("\"minimum-interval\""), "the configuration error names the key")
        #expect(log.contains("configuration not reloaded, keeping the previous one"))
        #expect(!log.contains("reloaded configuration"), "nothing says the configuration was reloaded")
    }

    @Test("a state directory that is a file stops the start with one plain sentence")
    func aBadStateDirectoryIsSaidOnce() throws {
        let world = try DaemonWorld()
        let file = world.root.appendingPathComponent("a-file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let result = try RunningCommand(
            [try BuiltProducts.executable("widget-scheduler"), "--config", world.configURL.path,
             "--state-dir", file.path, "--runtime-dir", world.runtimeDirectory.path,
             "--providers-dir", world.providersDirectory.path],
            environment: ["PATH": "/usr/bin:/bin"], scratch: world.root
        ).wait(timeout: 10)
        #expect(result.status == 1, "\(result)")
        let said = "widget-scheduler: the state directory \(file.path) is not a directory\n"
        #expect(result.standardError == said, "once, in plain words: \(result)")
    }

    @Test("a providers directory that does not exist is warned about and listed as missing by status")
    func aMissingProvidersDirectoryIsWarnedAndListed() throws {
        let world = try DaemonWorld()
        try FileManager.default.removeItem(at: world.providersDirectory)
        try world.start()
        let status = try world.widgetctlSucceeding("status", "--json").decoded(StatusMethod.Reply.self)
        #expect(status.providerDirectories == [
            StatusMethod.ProviderDirectory(path: world.providersDirectory.path, state: "missing", manifests: 0),
        ])
        let log = world.daemonLog
        #expect(log.contains("provider directory \(world.providersDirectory.path) does not exist"), "\(log)")
        #expect(log.contains("no provider manifests in"), "\(log)")
        let text = try world.widgetctlSucceeding("status").standardOutput
        #expect(text.contains("Providers: \(world.providersDirectory.path) (missing)"), "\(text)")
    }

    @Test("examples/clock-swift/clock.toml works as shipped, its provider taken from the build")
    func theClockExampleWorksAsShipped() throws {
        let world = try DaemonWorld()
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/clock-swift")
        // Linked, not copied: the manifest is used as it is (with the view files it names), and its launcher finds
        // the checkout's build.
        for name in try FileManager.default.contentsOfDirectory(atPath: example.path) where !name.hasSuffix(".swift") {
            try FileManager.default.createSymbolicLink(at: world.providersDirectory.appendingPathComponent(name),
                                                       withDestinationURL: example.appendingPathComponent(name))
        }
        try world.start()
        let id = try world.add("clock")
        let widget = try world.waitUntilIdle(id, timeout: 60)
        #expect(widget.lastOutcome == "success", "\(widget)\n\(world.daemonLog)")
        #expect(widget.currentEntry != nil)
    }
}
