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

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message without its NUL, nil when none is complete yet, or `OversizedMessage`.
    public mutating func nextMessage() throws(OversizedMessage) -> [UInt8]? {
        if failed { throw OversizedMessage(limit: maximumMessageSize) }
        let from = max(scanned, start)
        guard let end = buffer[from...].firstIndex(of: 0) else {
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
