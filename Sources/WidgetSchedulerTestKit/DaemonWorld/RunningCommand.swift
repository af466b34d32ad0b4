import Foundation
import Glibc

/// A command started in the background, its output going to files in a scratch directory so that no pipe can fill
/// up and block it.
public final class RunningCommand: @unchecked Sendable {
    public let command: [String]
    public let process: ChildProcess
    private let outputURL: URL
    private let errorURL: URL

    /// Starts `arguments[0]` with the rest as its arguments, in `environment`, writing its output under `scratch`.
    public init(_ arguments: [String], environment: [String: String], scratch: URL) throws {
        command = arguments
        let name = UUID().uuidString
        outputURL = scratch.appendingPathComponent("\(name).out")
        errorURL = scratch.appendingPathComponent("\(name).err")
        let input = try Descriptor.null()
        defer { close(input) }
        let output = try Descriptor.openForWriting(outputURL.path)
        defer { close(output) }
        let error = try Descriptor.openForWriting(errorURL.path)
        defer { close(error) }
        process = try ChildProcess(arguments, environment: environment, input: input, output: output, error: error)
    }

    /// Waits for the end, killing the command if it is still running after `timeout` seconds.
    public func wait(timeout: Double = 15) -> CommandResult {
        var timedOut = false
        if process.waitForExit(timeout: timeout) == nil {
            timedOut = true
            process.killAndWait()
        }
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
        return CommandResult(command: command, status: process.exitStatus ?? -1, standardOutput: output,
                             standardError: error, timedOut: timedOut)
    }
}
