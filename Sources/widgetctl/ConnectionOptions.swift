import ArgumentParser
import Foundation
import Glibc
import WidgetControl
import WidgetProtocol

/// Options every command shares: where the daemon listens.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The daemon's control socket (default: $WIDGET_SCHEDULER_SOCKET, else /run/widget-scheduler/control.socket).",
        valueName: "path"), completion: .file())
    var socket: String?

    /// The socket path after the environment and default are applied.
    var socketPath: String {
        ControlClient.socketPath(option: socket, environment: ProcessInfo.processInfo.environment)
    }

    /// Connects, runs `body` with the client, and turns any failure into a one-line reason on stderr and a
    /// non-zero exit status.
    func run(_ body: (ControlClient) throws(ControlClientError) -> Void) throws {
        do {
            let client = try ControlClient(path: socketPath)
            try body(client)
        } catch {
            Console.error(error.description)
            throw ExitCode(error.exitStatus.rawValue)
        }
    }
}

/// Writing to the terminal: unbuffered line writes (so `watch` output reaches a pipe at once) and the renderer.
enum Console {
    /// Writes `line` and a newline to standard output.
    static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes `text` as it is to standard output.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes each line to standard output.
    static func print(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Writes `widgetctl: message` to standard error.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("widgetctl: \(message)\n".utf8))
    }

    /// The human renderer for now, in the local time zone, with colour only on a terminal without NO_COLOR.
    static func renderer() -> ControlRenderer {
        let palette = Palette.detect(
            isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
        return ControlRenderer(time: TimeText(), palette: palette)
    }
}
