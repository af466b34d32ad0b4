import Foundation
import Glibc

/// A command started in the background, its output going to files in a scratch directory so that no pipe can fill
/// up and block it.
final class RunningCommand: @unchecked Sendable {
    let command: [String]
    let process = Process()
    private let outputURL: URL
    private let errorURL: URL

    /// Starts `arguments[0]` with the rest as its arguments, in `environment`, writing its output under `scratch`.
    init(_ arguments: [String], environment: [String: String], scratch: URL) throws {
        command = arguments
        let name = UUID().uuidString
        outputURL = scratch.appendingPathComponent("\(name).out")
        errorURL = scratch.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    /// Waits for the end, killing the command if it is still running after `timeout` seconds.
    func wait(timeout: Double = 15) -> CommandResult {
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() >= deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                break
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        process.waitUntilExit()
        let output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
        return CommandResult(command: command, status: process.terminationStatus, standardOutput: output,
                             standardError: error, timedOut: timedOut)
    }
}

/// A long-running command whose standard output is read line by line as it comes, each line stamped with the moment
/// it was read (`widgetctl watch`).
final class StreamingCommand: @unchecked Sendable {
    /// One line of output and when the reader got it.
    struct Line: Sendable {
        var text: String
        var readAt: Date
    }

    let process = Process()
    private let lock = NSLock()
    private var received: [Line] = []
    private var ended = false

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        let thread = Thread { [self] in readLines(from: descriptor, keeping: pipe) }
        thread.start()
    }

    /// Every line read so far.
    var lines: [Line] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Whether the command closed its output.
    var hasEnded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ended
    }

    /// Ends the command (SIGKILL) and waits for it.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    private func readLines(from descriptor: Int32, keeping pipe: Pipe) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            let now = Date()
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                lock.lock()
                received.append(Line(text: text, readAt: now))
                lock.unlock()
            }
        }
        lock.lock()
        ended = true
        lock.unlock()
        withExtendedLifetime(pipe) {}
    }
}
