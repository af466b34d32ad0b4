import Foundation
import WidgetProtocol

/// How `widget-host` runs: where it listens, who may connect, where the daemon and the layout are, and what a tap
/// does. Read from the command line, over a TOML file (`HostSettingsFile`).
public struct HostSettings: Sendable, Hashable {
    /// Where the web server listens.
    public enum Listener: Sendable, Hashable, CustomStringConvertible {
        case tcp(host: String, port: Int)
        case unix(path: String)

        /// `127.0.0.1:8470`, `[::1]:8470`, `localhost:8470`, `0.0.0.0:80` or `unix:/run/widget-host/http.socket`.
        public init(parsing text: String) throws(HostSettingsError) {
            if text.hasPrefix("unix:") {
                let path = String(text.dropFirst(5))
                guard path.hasPrefix("/") else {
                    throw .invalid("listen", "a Unix socket path must be absolute: \(text)")
                }
                self = .unix(path: path)
                return
            }
            guard let colon = text.lastIndex(of: ":") else {
                throw .invalid("listen", "expected HOST:PORT or unix:PATH, got \"\(text)\"")
            }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
                throw .invalid("listen", "expected HOST:PORT with a port from 1 to 65535, got \"\(text)\"")
            }
            self = .tcp(host: host, port: port)
        }

        public var description: String {
            switch self {
            case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unix(let path): return "unix:\(path)"
            }
        }

        /// Whether only processes of this machine can reach it: a loopback address, or a Unix socket (whose file
        /// mode decides who).
        public var isLocalOnly: Bool {
            switch self {
            case .tcp(let host, _): return ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
            case .unix: return true
            }
        }
    }

    /// The default listener: the loopback address only.
    public static let defaultListener = Listener.tcp(host: "127.0.0.1", port: 8470)

    public var listener: Listener
    /// A secret every request must carry (cookie or bearer header); required on any listener that is not local.
    public var token: String?
    /// The daemon's control socket.
    public var daemonSocket: String
    /// Where the layout file lives.
    public var stateDirectory: URL
    /// A command that opens a tapped URL (the URL is its last argument), instead of the browser.
    public var tapCommand: [String]?
    /// The page's title.
    public var title: String

    public init(
        listener: Listener = HostSettings.defaultListener, token: String? = nil,
        daemonSocket: String = ControlInterface.defaultSocketPath, stateDirectory: URL,
        tapCommand: [String]? = nil, title: String = "Widgets"
    ) {
        self.listener = listener
        self.token = token
        self.daemonSocket = daemonSocket
        self.stateDirectory = stateDirectory
        self.tapCommand = tapCommand
        self.title = title
    }

    /// Refuses a configuration that would open the host to the network without a token.
    public func validated() throws(HostSettingsError) -> HostSettings {
        if let token, token.count < 16 {
            throw .invalid("token", "a token must have at least 16 characters")
        }
        if !listener.isLocalOnly && token == nil {
            throw .invalid("listen", "\(listener) can be reached from other machines: set a token (token-file) "
                + "or listen on 127.0.0.1, ::1 or a Unix socket")
        }
        if let tapCommand, tapCommand.first?.isEmpty ?? true {
            throw .invalid("tap-command", "name a program, e.g. [\"xdg-open\"]")
        }
        return self
    }

    /// The state directory systemd gives (`$STATE_DIRECTORY`), else `$XDG_STATE_HOME/widget-host`, else
    /// `~/.local/state/widget-host`.
    public static func defaultStateDirectory(environment: [String: String]) -> URL {
        if let directory = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !directory.isEmpty {
            return URL(fileURLWithPath: String(directory), isDirectory: true)
        }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("widget-host")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/state/widget-host")
    }
}

/// A setting that cannot be used, naming it.
public enum HostSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalid(String, String)
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalid(let setting, let reason): return "\(setting): \(reason)"
        case .unreadable(let path, let reason): return "\(path): \(reason)"
        }
    }
}
