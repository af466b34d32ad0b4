import Foundation

/// The host setting that sends taps to a program (`xdg-open`, an app's scheme handler) instead of the browser: the
/// URL is its last argument, passed as it is, never through a shell.
public struct TapCommand: Sendable {
    public var command: [String]

    public init(command: [String]) {
        self.command = command
    }

    /// Starts the command for `url`; it is not waited for (an opener may run for long), only reaped.
    public func open(_ url: String) throws(HostError) {
        guard let program = command.first else { throw HostError(status: 500, message: "tap-command is empty") }
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(command.dropFirst()) + [url]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command + [url]
        }
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { _ in }
        do {
            try process.run()
        } catch {
            throw HostError(status: 500, message: "Cannot start \(program): \(error.localizedDescription)")
        }
    }
}
