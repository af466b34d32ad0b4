import Foundation
import Testing
@testable import WidgetHost

/// The host's settings: listeners, the token rule, the settings file, and the layout file.
struct HostSettingsTests {
    private var base: HostSettings { HostSettings(stateDirectory: URL(fileURLWithPath: "/tmp/none")) }

    @Test(arguments: [
        ("127.0.0.1:8470", HostSettings.Listener.tcp(host: "127.0.0.1", port: 8470)),
        ("[::1]:9000", .tcp(host: "::1", port: 9000)),
        ("0.0.0.0:80", .tcp(host: "0.0.0.0", port: 80)),
        ("unix:/run/widget-host/http.socket", .unix(path: "/run/widget-host/http.socket")),
    ])
    func listenersAreParsed(text: String, expected: HostSettings.Listener) throws {
        #expect(try HostSettings.Listener(parsing: text) == expected)
    }

    @Test(arguments: ["8470", "127.0.0.1:0", "127.0.0.1:65536", "unix:relative.socket", ":8470"])
    func badListenersAreRefused(text: String) {
        #expect(throws: HostSettingsError.self) { try HostSettings.Listener(parsing: text) }
    }

    @Test func anAddressOtherMachinesReachNeedsAToken() throws {
        var settings = base
        settings.listener = .tcp(host: "0.0.0.0", port: 8470)
        #expect(throws: HostSettingsError.self) { try settings.validated() }
        settings.token = "short"
        #expect(throws: HostSettingsError.self) { try settings.validated() }
        settings.token = "a-long-enough-secret-token"
        #expect(try settings.validated().token == "a-long-enough-secret-token")
        settings.listener = .unix(path: "/run/h.socket")
        settings.token = nil
        #expect(try settings.validated().listener == .unix(path: "/run/h.socket"))
    }

    @Test func theSettingsFileSetsEveryKeyAndNamesAnUnknownOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("token").path
        try "  s3cret-token-of-some-length  \nignored\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let text = """
            listen = "0.0.0.0:8080"
            token-file = "\(tokenFile)"
            socket = "/run/user/1000/widget-scheduler/control.socket"
            state-directory = "/var/lib/kiosk"
            tap-command = ["xdg-open"]
            title = "Kitchen"
            """
        let settings = try HostSettingsFile.parse(text, file: "host.toml", over: base).validated()
        #expect(settings.listener == .tcp(host: "0.0.0.0", port: 8080))
        #expect(settings.token == "s3cret-token-of-some-length")
        #expect(settings.daemonSocket == "/run/user/1000/widget-scheduler/control.socket")
        #expect(settings.stateDirectory.path == "/var/lib/kiosk")
        #expect(settings.tapCommand == ["xdg-open"])
        #expect(settings.title == "Kitchen")
        let known = "listen, token-file, socket, state-directory, tap-command, title"
        #expect(throws: HostSettingsError.invalid("host.toml: colour", "unknown key (known: \(known))")) {
            try HostSettingsFile.parse("colour = \"red\"", file: "host.toml", over: base)
        }
    }

    @Test func theLayoutSurvivesAWriteAndAnUnreadableFileIsSetAside() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = LayoutFile(directory: directory)
        #expect(file.load().layout == HomeLayout())
        let layout = HomeLayout(slots: [.init(id: "s1", widgets: ["w1", "w2"], pinned: "w2"),
                                        .init(id: "s2", widgets: ["w3"])], nextSlotNumber: 3)
        try file.save(layout)
        #expect(file.load().layout == layout)
        try Data("{not json".utf8).write(to: file.url)
        let loaded = file.load()
        #expect(loaded.layout == HomeLayout())
        #expect(loaded.problem?.contains("layout.json.unreadable") == true)
        #expect(FileManager.default.fileExists(atPath: file.url.path + ".unreadable"))
    }
}
