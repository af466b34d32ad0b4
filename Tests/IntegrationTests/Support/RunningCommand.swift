import Foundation
import Glibc

/// A command started in the background, its output going to files in a scratch directory so that no pipe can fill
/// up and block it.
final class RunningCommand: @unchecked Sendable {
    let command: [String]
    let process: ChildProcess
    private let outputURL: URL
    private let errorURL: URL

    /// Starts `arguments[0]` with the rest as its arguments, in `environment`, writing its output under `scratch`.
    init(_ arguments: [String], environment: [String: String], scratch: URL) throws {
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
    func wait(timeout: Double = 15) -> CommandResult {
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

/// A long-running command whose standard output is read line by line as it comes, each line stamped with the moment
/// it was read (`widgetctl watch`).
final class StreamingCommand: @unchecked Sendable {
    /// One line of output and when the reader got it.
    struct Line: Sendable {
        var text: String
        var readAt: Date
    }

    let process: ChildProcess
    private let lock = NSLock()
    private var received: [Line] = []
    private var ended = false
    private var refusals: [String] = []

    /// Where its standard error goes: a file when asked for, else nowhere.
    private let errorURL: URL?

    /// Starts the command; with `realTime`, it and the thread reading it run under SCHED_FIFO. With `errorURL`, its
    /// standard error is kept in that file (`standardError`).
    init(_ arguments: [String], environment: [String: String], realTime: Bool = false, errorURL: URL? = nil) throws {
        self.errorURL = errorURL
        let input = try Descriptor.null()
        defer { close(input) }
        let error = try Descriptor.openForWriting(errorURL?.path ?? "/dev/null", append: true)
        defer { close(error) }
        let pipe = try Descriptor.pipe()
        do {
            process = try ChildProcess(arguments, environment: environment, input: input, output: pipe.write,
                                       error: error)
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw error
        }
        // Only the child may hold the write end, so that its exit is the end of the stream.
        close(pipe.write)
        if realTime, let refusal = process.makeRealTime() { refusals.append(refusal) }
        let thread = Thread { [self] in
            if realTime, let refusal = ChildProcess.makeCurrentThreadRealTime() {
                lock.lock()
                refusals.append(refusal)
                lock.unlock()
            }
            readLines(from: pipe.read)
        }
        thread.start()
    }

    /// Why the command or its reader could not run under SCHED_FIFO, when `realTime` was asked; empty when both do.
    var realTimeRefusals: [String] {
        lock.lock()
        defer { lock.unlock() }
        return refusals
    }

    /// Every line read so far.
    var lines: [Line] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// What the command wrote on standard error so far (empty unless started with an `errorURL`).
    var standardError: String {
        errorURL.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
    }

    /// Whether the command closed its output.
    var hasEnded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ended
    }

    /// Ends the command (SIGKILL) and waits for it.
    func stop() {
        process.killAndWait()
    }

    private func readLines(from descriptor: Int32) {
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
        close(descriptor)
        lock.lock()
        ended = true
        lock.unlock()
    }
}
