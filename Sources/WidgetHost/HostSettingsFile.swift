import Foundation
import TOMLKit
import WidgetProtocol

/// `widget-host`'s settings file (TOML). Every key is optional; a missing file means the defaults.
///
/// ```
/// listen = "127.0.0.1:8470"        # or "unix:/run/widget-host/http.socket"; another address needs a token
/// token-file = "/etc/widget-scheduler/widget-host.token"   # a secret of at least 16 characters
/// socket = "/run/widget-scheduler/control.socket"          # the daemon's control socket
/// state-directory = "/var/lib/widget-host"                 # where the layout is saved
/// tap-command = ["xdg-open"]       # open tapped URLs with a program instead of the browser
/// title = "Kitchen"
/// ```
public enum HostSettingsFile {
    /// The system-wide file; a user's is `$XDG_CONFIG_HOME/widget-scheduler/widget-host.toml`.
    public static let systemPath = "/etc/widget-scheduler/widget-host.toml"

    static let knownKeys = ["listen", "token-file", "socket", "state-directory", "tap-command", "title"]

    /// The settings the file at `path` gives over `settings`; a file that does not exist changes nothing.
    public static func load(path: String, over settings: HostSettings) throws(HostSettingsError) -> HostSettings {
        guard FileManager.default.fileExists(atPath: path) else { return settings }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "cannot be read")
        }
        return try parse(text, file: path, over: settings)
    }

    /// Parses settings text; `file` names it in errors.
    public static func parse(_ text: String, file: String, over settings: HostSettings) throws(HostSettingsError)
        -> HostSettings
    {
        let fields: [String: JSONValue]
        do {
            let table = try TOMLTable(string: text)
            guard case .object(let object)? = JSONValue(jsonText: table.convert(to: .json)) else {
                throw HostSettingsError.unreadable(path: file, reason: "could not read the document's values")
            }
            fields = object
        } catch let error as TOMLParseError {
            throw .unreadable(path: file, reason: "not valid TOML: \(error.description) (line "
                + "\(error.source.begin.line), column \(error.source.begin.column))")
        } catch let error as HostSettingsError {
            throw error
        } catch {
            throw .unreadable(path: file, reason: "not valid TOML: \(error)")
        }
        var result = settings
        for key in fields.keys.sorted() {
            guard let value = fields[key] else { continue }
            func text() throws(HostSettingsError) -> String {
                guard case .string(let string) = value else {
                    throw .invalid("\(file): \(key)", "expected a string, found \(value.typeName)")
                }
                return string
            }
            switch key {
            case "listen":
                do {
                    result.listener = try HostSettings.Listener(parsing: try text())
                } catch {
                    throw .invalid("\(file): listen", "\(error)")
                }
            case "token-file": result.token = try readToken(path: try text())
            case "socket": result.daemonSocket = try text()
            case "state-directory": result.stateDirectory = URL(fileURLWithPath: try text(), isDirectory: true)
            case "title": result.title = try text()
            case "tap-command":
                guard case .array(let items) = value, !items.isEmpty else {
                    throw .invalid("\(file): tap-command", "expected an array of strings such as [\"xdg-open\"]")
                }
                var command: [String] = []
                for item in items {
                    guard case .string(let word) = item else {
                        throw .invalid("\(file): tap-command", "expected strings, found \(item.typeName)")
                    }
                    command.append(word)
                }
                result.tapCommand = command
            default:
                throw .invalid("\(file): \(key)", "unknown key (known: \(knownKeys.joined(separator: ", ")))")
            }
        }
        return result
    }

    /// The token in the file at `path`: its first line, without surrounding white space.
    public static func readToken(path: String) throws(HostSettingsError) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "the token file cannot be read")
        }
        let token = text.split(separator: "\n", omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty else { throw .unreadable(path: path, reason: "the token file is empty") }
        return token
    }
}
