import Foundation
import Glibc

/// A long-running command whose standard output is read line by line as it comes, each line stamped with the moment
/// it was read (`widgetctl watch`).
public final class StreamingCommand: @unchecked Sendable {
    /// One line of output and when the reader got it.
    public struct Line: Sendable {
        public var text: String
        public var readAt: Date
    }

    public let process: ChildProcess
    private let lock = NSLock()
    private var received: [Line] = []
    private var ended = false
    private var refusals: [String] = []

    /// Where its standard error goes: a file when asked for, else nowhere.
    private let errorURL: URL?

    /// Starts the command; with `realTime`, it and the thread reading it run under SCHED_FIFO. With `errorURL`, its
    /// standard error is kept in that file (`standardError`).
    public init(
        _ arguments: [String], environment: [String: String], realTime: Bool = false, errorURL: URL? = nil
    ) throws {
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
    public var realTimeRefusals: [String] {
        lock.lock()
        defer { lock.unlock() }
        return refusals
    }

    /// Every line read so far.
    public var lines: [Line] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// What the command wrote on standard error so far (empty unless started with an `errorURL`).
    public var standardError: String {
        errorURL.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
    }

    /// Whether the command closed its output.
    public var hasEnded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ended
    }

    /// Ends the command (SIGKILL) and waits for it.
    public func stop() {
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
