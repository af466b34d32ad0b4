#if canImport(Glibc)
import Glibc
#endif
import WidgetProtocol

/// Splits a byte stream into NUL-terminated Varlink messages.
///
/// Bytes are appended as they arrive; `nextMessage()` hands out each complete message without its NUL. A message
/// longer than `maximumMessageSize` (complete, or still open with that many bytes buffered) is an error, after which
/// the stream is out of step and the connection must be closed. Once everything buffered has been handed out the
/// buffer is released, so an idle connection holds no memory here.
public struct VarlinkFramer: Sendable {
    /// A message exceeded the limit.
    public struct OversizedMessage: Error, Sendable, Hashable, CustomStringConvertible {
        public var limit: Int

        public init(limit: Int) {
            self.limit = limit
        }

        public var description: String { "message larger than \(limit) bytes" }
    }

    /// The largest message accepted, NUL excluded.
    public let maximumMessageSize: Int
    private var buffer: [UInt8] = []
    /// Bytes before `start` were handed out already.
    private var start = 0
    /// No NUL lies in `start..<scanned`, so a search resumes there.
    private var scanned = 0
    private var failed = false

    public init(maximumMessageSize: Int = ControlInterface.maximumMessageSize) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Bytes received but not yet handed out.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Bytes of memory the buffer holds now, handed-out bytes not yet released and room to grow included.
    public var capacity: Int { buffer.capacity }

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // As typed bytes, so the array copies them in one go rather than iterating a raw sequence.
        buffer.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Whether the bytes buffered hold a message's NUL: false when they are only the start of one (or nothing).
    /// Each byte is looked at once, here or in `nextMessage()`.
    public mutating func containsCompleteMessage() -> Bool {
        let from = max(scanned, start)
        guard let end = firstNUL(from: from) else {
            scanned = buffer.count
            return false
        }
        scanned = end
        return true
    }

    /// The next complete message without its NUL, nil when none is complete yet, or `OversizedMessage`.
    public mutating func nextMessage() throws(OversizedMessage) -> [UInt8]? {
        if failed { throw OversizedMessage(limit: maximumMessageSize) }
        let from = max(scanned, start)
        guard let end = firstNUL(from: from) else {
            scanned = buffer.count
            if buffer.count - start > maximumMessageSize {
                failed = true
                throw OversizedMessage(limit: maximumMessageSize)
            }
            return nil
        }
        if end - start > maximumMessageSize {
            failed = true
            throw OversizedMessage(limit: maximumMessageSize)
        }
        let message = Array(buffer[start..<end])
        start = end + 1
        scanned = start
        compact()
        return message
    }

    /// The index of the first NUL at or after `from`, by memchr: a client may send a megabyte without one, and a
    /// byte-by-byte search of that is slow enough in a debug build to hold the loop.
    private func firstNUL(from: Int) -> Int? {
        guard from < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base + from, 0, bytes.count - from) else {
                return nil
            }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer = []
            start = 0
            scanned = 0
        } else if start >= 64 * 1024 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
    }
}
